// The table drawn from one view: status bar, the felt with four seats and their plays,
// declarations, point cards, the score sheet and hand results. Pure functions of
// (view, room, me): the live room and the replayer both use them.

import { botLevel } from "./bots.js";
import { cardEl, cardRow } from "./cards.js";
import { el } from "./dom.js";
import { errorText, lang, pick, suitSymbol, t, tn } from "./i18n.js";
import { callsPanel, isFriends, seatCount, teamClass, winnersOf } from "./friends.js";
import { cardPoints, contextOf, splitCards } from "./notation.js";

export const POSITIONS = ["bottom", "right", "top", "left"];

// Where a seat sits on the felt, by its place after yours in play order (counter-
// clockwise from the bottom): the four sides with four seats, the grid's cells around the
// centre with more (p0 is you, at the bottom).
export function feltPosition(rel, n) {
  return n === 4 ? `pos-${POSITIONS[rel]}` : `pos-p${rel}`;
}

export function seatName(room, i) {
  if (i === null || i === undefined) return "?";
  const s = room && room.seats ? room.seats[i] : null;
  if (!s || s.kind === "empty") return t("empty");
  if (s.kind === "bot") {
    const level = botLevel(s.bot);
    return level ? t("botNameKind", { n: i + 1, kind: level }) : t("botName", { n: i + 1 });
  }
  return s.name || `${t("seat")} ${i + 1}`;
}

export function teamName(room, team) {
  return t("partners", { a: seatName(room, team), b: seatName(room, team + 2) });
}

export function trumpLabel(trump) {
  if (trump === null || trump === undefined) return t("undecided");
  if (trump === "NT") return t("nt");
  return `${suitSymbol(trump)} ${t(`suit_${trump}`)}`;
}

function trumpBadge(trump) {
  if (trump === null || trump === undefined) return el("b", { class: "muted" }, t("undecided"));
  if (trump === "NT") return el("b", {}, t("nt"));
  return el("b", { class: `suit ${trump === "H" || trump === "D" ? "red" : "black"}` },
    el("span", { class: "big-suit" }, suitSymbol(trump)), " ", t(`suit_${trump}`));
}

// The collectors' seats' team (banker's opponents), or null before a banker exists.
const collectorsTeam = (view) => (view.banker === null || view.banker === undefined ? null : 1 - (view.banker % 2));

export function pointCardsTaken(view) {
  const team = collectorsTeam(view);
  if (team === null) return [];
  const friends = Array.isArray(view.sides);
  const out = [];
  for (const tr of view.tricks || []) {
    // 找朋友: the points of every player not (yet) known on the banker's side
    if (friends ? view.sides[tr.winner] === 0 : tr.winner % 2 !== team) continue;
    for (const p of tr.plays) for (const c of splitCards(p.cards)) if (cardPoints(c)) out.push(c);
  }
  return out;
}

export function statusBar(view, room, me, watching = false) {
  if (watching) me = null;
  const banker = view.banker === null || view.banker === undefined ? t("undecided")
    : seatName(room, view.banker) + (view.banker === me ? ` (${t("you")})` : "");
  const pts = view.collector_points + (view.penalties || 0);
  const penalty = view.penalties ? ` (${view.penalties > 0 ? "+" : ""}${view.penalties} ${t("penalty")})` : "";
  const short = (team) => (me === null || me === undefined ? t(team ? "teamB" : "teamA") : t(team === me % 2 ? "us" : "them"));
  const levels = [0, 1].map((team) => el("span", { class: `lv team${team}`, title: teamName(room, team) },
    el("span", { class: "tname" }, teamName(room, team)), el("span", { class: "tshort" }, short(team)), " ",
    el("b", {}, view.levels[team])));
  const taken = pointCardsTaken(view);
  const friends = isFriends(view, room);
  const nameOf = (s) => seatName(room, s) + (s === me ? ` (${t("you")})` : "");
  return el("div", { class: `statusbar${friends ? " friends" : ""}`, id: "statusbar" },
    el("div", { class: "st" }, el("small", {}, t("handN", { n: view.hand_number + 1 })),
      el("span", {}, t("level"), " ", el("b", { id: "level" }, view.level))),
    el("div", { class: "st" }, el("small", {}, t("trump")), el("span", { id: "trump" }, trumpBadge(view.trump))),
    el("div", { class: "st" }, el("small", {}, t("banker")), el("b", { id: "banker" }, banker)),
    el("div", { class: "st pts" }, el("small", {}, t("points")),
      el("span", {}, el("b", { id: "points" }, String(pts)), penalty),
      taken.length ? el("span", { class: "taken", id: "taken", title: t("pointCards") }, cardRow(taken, { size: "mini" })) : null),
    friends ? callsPanel(view, room, nameOf) : el("div", { class: "st levels" }, el("small", {}, t("levels")), levels));
}

// Which trick to draw on the felt: the one being played, or the last finished one until
// the next lead (hold: keep a just-finished trick a moment longer).
export function trickOnTable(view, hold) {
  const tricks = view.tricks || [];
  const finished = tricks.length ? tricks[tricks.length - 1] : null;
  if (hold && finished) return { plays: finished.plays, winner: finished.winner, points: finished.points, done: true };
  if (view.trick && view.trick.length) return { plays: view.trick, winner: null, points: null, done: false };
  if (finished && ["play", "hand_over", "match_over"].includes(view.phase)) {
    return { plays: finished.plays, winner: finished.winner, points: finished.points, done: true };
  }
  return null;
}

export function winningSeat(view, trick) {
  if (!trick) return null;
  return trick.done ? trick.winner : view.winning;
}

// The felt: four seats placed around the table, relative to `me` (bottom).
// opts: hold, deadline(seat) -> epoch or null, waiting (seats), reviewing (seats whose
// hand review holds the next hand), lastTrickButton, note (an element: what the table did
// by itself, shown under the seats)
export function felt(view, room, me, opts = {}) {
  const base = me === null || me === undefined ? 0 : me;
  if (opts.watching) me = null; // the replayer: drawn from a seat, nobody is "you"
  const ctx = contextOf(view, room);
  const trick = trickOnTable(view, opts.hold);
  const win = winningSeat(view, trick);
  const playOf = {};
  if (trick) for (const p of trick.plays) playOf[p.seat] = p;
  const leader = trick && trick.plays.length ? trick.plays[0].seat : null;
  const n = seatCount(view, room);
  const friends = isFriends(view, room);
  const seats = [...Array(n).keys()].map((s) => {
    const info = (room.seats || [])[s] || {};
    const pos = feltPosition((s - base + n) % n, n);
    const tags = [];
    if (view.banker === s) tags.push(el("span", { class: "tag banker", title: t("banker") }, t("bankerBadge")));
    else if (friends && (view.sides || [])[s] === 0) tags.push(el("span", { class: "tag friend", title: t("friendTitle") }, t("friendBadge")));
    if (room.host_seat === s) tags.push(el("span", { class: "tag host", title: t("host") }, "★"));
    if (info.away) tags.push(el("span", { class: "tag away" }, t("away")));
    else if (info.kind === "human" && info.connected === false) tags.push(el("span", { class: "tag away" }, t("offline")));
    if (opts.reviewing && opts.reviewing.includes(s)) tags.push(el("span", { class: "tag wait review" }, t("reviewingTag")));
    else if (opts.waiting && opts.waiting.includes(s)) tags.push(el("span", { class: "tag wait" }, t("reading")));
    const deadline = opts.deadline ? opts.deadline(s) : null;
    const p = playOf[s];
    const playTags = [];
    if (p && leader === s && !trick.done) playTags.push(el("span", { class: "ptag lead" }, t("leads")));
    if (p && win === s) playTags.push(el("span", { class: "ptag win" }, trick.done ? `★ ${t("won")}` : `★ ${t("winning")}`));
    if (p && p.attempted) playTags.push(el("span", { class: "ptag fail", title: cardsText(p.attempted) }, t("throwFailedTag")));
    const toAct = view.to_act === s && !["hand_over", "match_over"].includes(view.phase);
    const revealed = opts.revealed && opts.revealed.includes(s);
    return el("div", { class: `seat ${pos}${toAct ? " to-act" : ""}${win === s && p ? " winning" : ""}${revealed ? " revealed" : ""}`, "data-seat": s },
      el("div", { class: "who" },
        el("span", { class: `name ${teamClass(view, s)}` }, seatName(room, s), me === s ? ` (${t("you")})` : ""), tags),
      el("div", { class: "sub" },
        el("span", { class: "count" }, tn("cards", (view.hand_sizes || [])[s] ?? 0)),
        friends && view.levels ? el("span", { class: "plevel", title: t("playerLevel") }, t("levelOf", { lv: view.levels[s] })) : null,
        deadline ? el("span", { class: "timer", "data-deadline": String(deadline), title: t("timeLeft") }, "") : null),
      el("div", { class: `play${p ? "" : " empty"}${trick && trick.done ? " done" : ""}`, "data-play": s },
        p ? cardRow(p.cards, { size: "table", ctx, markTrump: true }) : null,
        playTags.length ? el("span", { class: "ptags" }, playTags) : null));
  });
  const center = [];
  const finished = trick && trick.done ? trick : opts.recent ? (view.tricks || [])[view.tricks.length - 1] : null;
  if (finished && finished.winner !== null && finished.winner !== undefined) {
    center.push(el("div", { class: `trick-note${trick && trick.done ? "" : " recent"}`, id: "tricknote" },
      t("trickWonBy", { name: seatName(room, finished.winner) }),
      finished.points ? ` ${tn("trickPoints", finished.points)}` : ""));
  }
  if (["deal", "before_kitty", "after_burial", "bury"].includes(view.phase) && view.declarations && view.declarations.length) {
    const d = view.declarations[view.declarations.length - 1];
    center.push(el("div", { class: "center-decl" },
      el("small", {}, `${seatName(room, d.seat)} · ${declKind(view.declarations, view.declarations.length - 1)}`),
      cardRow(d.cards, { size: "mini" })));
  }
  // a failed throw is told until the trick after it is over (the thrower may have to play
  // again at once)
  const tricks = view.tricks || [];
  const failedIn = (tr) => (tr ? (tr.plays || []).find((p) => p.attempted) : null);
  const failed = failedIn(trick) || (trick && !trick.done ? failedIn(tricks[tricks.length - 1]) : null);
  // what the table has to explain (a failed throw, a move a bot made for someone) runs
  // across the felt, under the seats
  const notes = [failed ? throwNote(failed, room) : null, opts.note || null].filter(Boolean);
  if (view.phase === "deal" && view.paced && view.deal_total) {
    const pace = room && room.deal_seconds;
    // the count, and the pace where there is room for it (a phone shows it in the rules)
    center.push(el("div", { class: "muted dealing", id: "dealing" },
      el("span", {}, t("dealingShort", { n: view.dealt, total: view.deal_total })),
      pace ? el("span", { class: "pace" }, ` · ${t("paceEvery", { n: pace })}`) : null));
  } else if (view.phase === "deal" || view.phase === "before_kitty") {
    center.push(el("div", { class: "muted" }, t(`phase_${view.phase}`)));
  }
  if (opts.lastTrickButton && (view.tricks || []).length) center.push(opts.lastTrickButton);
  if (opts.logButton) center.push(opts.logButton);
  if (opts.kittyButton) center.push(opts.kittyButton);
  return el("div", { class: `felt n${n}${notes.length ? " has-notes" : ""}`, id: "felt", "data-seats": n }, seats, el("div", { class: "center" }, center),
    notes.length ? el("div", { class: "notes", id: "feltnotes" }, notes) : null);
}

// Cards as text with suit symbols ("♠A ♠3", kept on one line), for sentences.
export function cardsText(cards) {
  return splitCards(cards).map((c) => (c === "BJ" ? t("bigJoker") : c === "LJ" ? t("littleJoker")
    : `${suitSymbol(c[0])}${c.slice(1)}`)).join("\u00a0");
}

// What a failed throw did, for everyone at the table: who threw what, who could beat it,
// what was played instead, and the penalty.
export function throwNote(p, room, withId = true) {
  const by = p.blocked_by === null || p.blocked_by === undefined ? "?" : seatName(room, p.blocked_by);
  let text = t("throwFailedNote", {
    name: seatName(room, p.seat), tried: cardsText(p.attempted), by, played: cardsText(p.cards),
  });
  if ((room.options || {}).throw_penalty === "stake") text += ` ${t("throwPenaltyStake")}`;
  else if (p.penalty > 0) text += ` ${t("throwPenaltyUp", { n: p.penalty })}`;
  else if (p.penalty < 0) text += ` ${t("throwPenaltyDown", { n: -p.penalty })}`;
  return el("div", { class: "throw-note", id: withId ? "thrownote" : null, role: withId ? "status" : null }, text);
}

export function declKind(decls, i) {
  if (i === 0) return t("declared");
  const prev = decls[i - 1], cur = decls[i];
  const suit = (c) => { const f = splitCards(c)[0] || ""; return f === "BJ" || f === "LJ" ? f : f[0]; };
  if (prev.seat === cur.seat) return t(suit(prev.cards) === suit(cur.cards) ? "reinforced" : "changedOwn");
  return t("countered");
}

export function declarationsPanel(view, room) {
  const ds = view.declarations || [];
  if (!ds.length) return null;
  return el("div", { class: "decls", id: "decls" }, el("h3", {}, t("declarations")),
    ds.map((d, i) => el("div", { class: "decl" },
      el("span", { class: `name ${teamClass(view, d.seat)}` }, seatName(room, d.seat)),
      el("small", {}, declKind(ds, i)), cardRow(d.cards, { size: "mini" }))));
}

// One trick as rows: name, cards, leads / won, points (live: the trick being played, its
// winner so far).
export function trickRows(trick, room, ctx, live = false, view = null) {
  const win = trick.winner;
  return el("div", { class: "trick-rows" }, trick.plays.map((p, i) => el("div", { class: `trow${p.seat === win ? " won" : ""}`, "data-seat": p.seat },
    el("span", { class: `name ${teamClass(view, p.seat)}` }, seatName(room, p.seat)),
    cardRow(p.cards, { size: "table", ctx, markTrump: true }),
    el("span", { class: "ptags" }, i === 0 ? el("span", { class: "ptag lead" }, t("leads")) : null,
      p.seat === win ? el("span", { class: "ptag win" }, `★ ${t(live ? "winning" : "won")}`) : null))),
  live ? null : el("div", { class: "trick-note" }, t("trickWonBy", { name: seatName(room, win) }),
    trick.points ? ` ${tn("trickPoints", trick.points)}` : ""));
}

// The hand so far: declarations, then one row per trick (its number, the leader, every
// play, the winner, its points, a failed throw), each opening to the trick's rows, the
// throw explained and review marks (the search bot's better plays); the trick being
// played last, open. open: the trick numbers opened (kept across redraws); onToggle(n, open).
export function handLog(view, room, ctx, marks = [], open = new Set(), onToggle = null) {
  const row = (n, trick, live) => {
    const failed = trick.plays.find((p) => p.attempted);
    const leader = trick.plays[0].seat;
    const mine = marks.filter((m) => m.trick === n);
    const win = live ? view.winning : trick.winner;
    const summary = el("summary", { class: "logrow" },
      el("span", { class: "lnum" }, String(n)),
      el("span", { class: `lleader name ${teamClass(view, leader)}`, title: t("leads") }, seatName(room, leader)),
      el("span", { class: "lplays" }, trick.plays.map((p) => el("span", { class: `lplay${p.seat === win ? " won" : ""}`, "data-seat": p.seat,
        title: seatName(room, p.seat) }, cardRow(p.cards, { size: "mini", ctx, markTrump: true })))),
      el("span", { class: "lwin" }, live ? el("small", { class: "muted" }, t("inProgress"))
        : ["★ ", el("span", { class: `name ${teamClass(view, win)}` }, seatName(room, win))]),
      el("span", { class: "lpts" }, trick.points ? `+${trick.points}` : ""),
      failed || mine.length ? el("span", { class: "lflags" }, failed ? el("span", { class: "ptag fail" }, t("throwFailedTag")) : null,
        mine.length ? el("span", { class: "ptag mark", title: t("reviewBetter") }, "✎") : null) : null);
    // open: the trick being played, those the reader opened, and those with review marks
    const d = el("details", { class: "logtrick", "data-trick": n, open: live || open.has(n) || mine.length ? true : null }, summary,
      el("div", { class: "logbody" }, trickRows(trick, room, ctx, live, view),
        failed ? throwNote(failed, room, false) : null,
        mine.map((m) => el("div", { class: "logmark" },
          el("small", {}, `${t("reviewBetter")}: `), cardRow(m.better, { size: "mini", ctx, markTrump: true }),
          el("small", { class: "muted" }, ` ${pick(m.reason ? m.reason.text : m.text)}`)))));
    if (onToggle && !live) d.addEventListener("toggle", () => onToggle(n, d.open));
    return d;
  };
  const tricks = (view.tricks || []).map((tr, i) => row(i + 1, tr, false));
  if (view.trick && view.trick.length) {
    tricks.push(row(tricks.length + 1, { plays: view.trick, winner: view.winning, points: null }, true));
  }
  return el("div", { class: "handlog", id: "handlog" },
    el("h3", {}, t("handLogOf", { n: view.hand_number + 1 })),
    declarationsPanel(view, room) || el("p", { class: "muted" }, t("noDeclarations")),
    tricks.length ? [el("p", { class: "muted small" }, t("logKey")), el("div", { class: "logtricks" }, tricks)] : el("p", { class: "muted" }, t("noTrickYet")));
}

// opts: me (your seat: teams are "us" and "them"), review(hand) (a button per hand)
export function scoreSheet(view, room, opts = {}) {
  const rows = view.score_sheet || [];
  if (!rows.length) return null;
  if (friendsRow(rows[0])) return friendsSheet(view, room, opts);
  return el("div", { class: "sheetbox" }, el("h3", {}, t("sheet")),
    el("table", { class: "sheet", id: "sheet" },
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("banker")), el("th", {}, t("level")),
        el("th", {}, t("trump")), el("th", { title: t("points") }, t("sheetPoints")), el("th", {}, t("result")), opts.review ? el("th", {}) : null)),
      el("tbody", {}, rows.map((r) => el("tr", {},
        el("td", {}, r.number + 1), el("td", { class: friendsRow(r) ? "side0" : `team${r.banker % 2}` }, seatName(room, r.banker)), el("td", {}, r.level),
        el("td", { class: r.trump === "H" || r.trump === "D" ? "red" : "" }, r.trump === "NT" ? t("ntShort") : suitSymbol(r.trump)),
        el("td", {}, r.points),
        el("td", {}, friendsRow(r) ? friendsGist(r, room, opts.me) : resultGist(r, opts.me)),
        opts.review ? el("td", {}, el("button", { class: "ghost small sheetreview", "data-hand": r.number,
          title: t("reviewHandN", { n: r.number + 1 }), "aria-label": t("reviewHandN", { n: r.number + 1 }),
          onclick: () => opts.review(r.number) }, t("reviewShort"))) : null)))));
}

const friendsRow = (r) => Array.isArray(r.banker_side);

// 找朋友's score sheet: a column per player (B the banker, F a friend, +n the levels that
// player climbed), and every player's level now.
function friendsSheet(view, room, opts) {
  const rows = view.score_sheet || [];
  const n = seatCount(view, room);
  const seats = [...Array(n).keys()];
  const me = opts.me;
  const who = (s) => (s === me ? t("you") : seatName(room, s));
  // a column's head: a bot by its seat ("Bot 3"), a person by name
  const head = (s) => {
    const info = (room.seats || [])[s] || {};
    return s === me ? t("you") : info.kind === "bot" ? t("botName", { n: s + 1 }) : seatName(room, s);
  };
  const cell = (r, s) => {
    const won = winnersOf(r, n).includes(s) && r.gain;
    const mark = s === r.banker ? t("sheetBankerMark") : r.banker_side.includes(s) ? t("sheetFriendMark") : "";
    return el("td", { class: `pcol${won ? " won" : ""}${r.banker_side.includes(s) ? " side0" : ""}`, "data-seat": s },
      mark, won ? `${mark ? " " : ""}+${r.gain}` : mark ? "" : "·");
  };
  return el("div", { class: "sheetbox" }, el("h3", {}, t("sheet")),
    el("table", { class: "sheet friends", id: "sheet" },
      el("colgroup", {}, el("col", { class: "cnum" }), el("col", { class: "clevel" }), el("col", { class: "ctrump" }),
        el("col", { class: "cpts" }), seats.map(() => el("col", { class: "cplayer" })), opts.review ? el("col", { class: "creview" }) : null),
      // short heads (their words in the title): six to eight player columns fit a phone
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", { title: t("level") }, t("levelShort")),
        el("th", { title: t("trump") }, t("trumpShort")), el("th", { title: t("points") }, t("pointsShort")),
        seats.map((s) => el("th", { class: "pcol", title: who(s) }, el("span", {}, head(s)))),
        opts.review ? el("th", {}) : null)),
      el("tbody", {}, rows.map((r) => el("tr", {},
        el("td", {}, r.number + 1), el("td", {}, r.level),
        el("td", { class: r.trump === "H" || r.trump === "D" ? "red" : "" }, r.trump === "NT" ? t("ntShort") : suitSymbol(r.trump)),
        el("td", {}, r.points),
        seats.map((s) => cell(r, s)),
        opts.review ? el("td", {}, el("button", { class: "ghost small sheetreview", "data-hand": r.number,
          title: t("reviewHandN", { n: r.number + 1 }), "aria-label": t("reviewHandN", { n: r.number + 1 }),
          onclick: () => opts.review(r.number) }, t("reviewShort"))) : null)),
      el("tr", { class: "now" }, el("td", { colspan: 4 }, t("levelNow")),
        seats.map((s) => el("td", { class: "pcol", "data-seat": s }, (view.levels || [])[s] ?? "")),
        opts.review ? el("td", {}) : null))),
    el("p", { class: "muted small" }, t("sheetKey")));
}

// 找朋友: the winners by name and what they gained ("Ann, Bo +1", "Cy, Di, Ed: banker").
function friendsGist(r, room, me) {
  const n = (room.seats || []).length || 4;
  const won = winnersOf(r, n);
  const names = won.map((s) => (s === me ? t("you") : seatName(room, s))).join(lang === "zh" ? "、" : ", ");
  const cls = won.includes(r.banker) ? "side0" : "side1";
  if (!r.gain) return el("span", { class: cls }, lang === "zh" ? `${names} 上台` : `${names}: banker`);
  return el("span", { class: cls }, `${names} +${r.gain}`);
}

// "us +1" / "Team A take the banker": short enough for a phone's column.
function resultGist(r, me) {
  const bteam = r.banker % 2;
  const team = r.side === "banker" ? bteam : 1 - bteam;
  const who = me === null || me === undefined ? t(team ? "teamB" : "teamA") : t(team === me % 2 ? "us" : "them");
  if (!r.gain) return lang === "zh" ? `${who}上台` : `${who}: banker`;
  return `${who} +${r.gain}`;
}

// The result of the latest hand: explanation, points, kitty and multiplier, levels after.
export function handResult(view, room, me = null) {
  const r = (view.score_sheet || [])[view.score_sheet.length - 1];
  if (!r) return null;
  if (friendsRow(r)) return friendsResult(view, room, r, me);
  const ctx = contextOf(view); // still the finished hand's trumps
  const parts = [el("span", {}, t("collectorsTook", { n: r.trick_points }))];
  if (r.kitty_multiplier) parts.push(el("span", {}, " + ", t("kittyTimes", { pts: r.kitty_points, mult: r.kitty_multiplier })));
  if (r.penalties) parts.push(el("span", {}, ` ${r.penalties > 0 ? "+" : ""}${r.penalties} ${t("penalty")}`));
  parts.push(el("b", {}, ` = ${r.points}`));
  return el("div", { class: "result", id: "handresult" },
    el("h3", {}, t("handOver", { n: r.number + 1 })),
    el("p", { class: "explain" }, withNames(view.phase === "match_over" ? lastHand(pick(r.explain)) : pick(r.explain), room)),
    r.kitty_multiplier || r.penalties ? el("p", { class: "breakdown" }, parts) : null,
    view.kitty ? el("div", { class: "kitty-line" }, el("small", {}, t("kitty"),
      r.kitty_multiplier ? ` ×${r.kitty_multiplier}` : ""), cardRow(view.kitty, { size: "table", ctx, markTrump: true })) : null,
    el("p", {}, t("levels"), ": ", [0, 1].map((team) => [team ? " · " : null, el("span", { class: `lv team${team}` },
      teamName(room, team), " ", el("b", {}, r.levels_after ? levelsAfter(r)[team] : view.levels[team]))])),
    r.coins && (r.coins[0] || r.coins[1]) ? el("p", { class: "coins" }, t("coins"), ": ",
      [0, 1].map((team) => `${team ? " · " : ""}${teamName(room, team)} ${signed(r.coins[team])}`).join("")) : null);
}

const signed = (n) => `${n > 0 ? "+" : ""}${n}`;

// Names joined for a sentence, "you" for your own seat.
function names(room, seats, me) {
  return seats.map((s) => (s === me ? t("you") : seatName(room, s))).join(lang === "zh" ? "、" : ", ");
}

// 找朋友's hand result: who was on the banker's side, who won and climbed, every
// player's level.
function friendsResult(view, room, r, me) {
  const ctx = contextOf(view);
  const n = (room.seats || []).length || seatCount(view, room);
  const won = winnersOf(r, n);
  const bankerWon = won.includes(r.banker);
  const parts = [el("span", {}, t("collectorsTook", { n: r.trick_points }))];
  if (r.kitty_multiplier) parts.push(el("span", {}, " + ", t("kittyTimes", { pts: r.kitty_points, mult: r.kitty_multiplier })));
  if (r.penalties) parts.push(el("span", {}, ` ${r.penalties > 0 ? "+" : ""}${r.penalties} ${t("penalty")}`));
  if (r.kitty_multiplier || r.penalties) parts.push(el("b", {}, ` = ${r.points}`));
  const levels = [...Array(n).keys()].map((s) => el("span", { class: `plv ${r.banker_side.includes(s) ? "side0" : "side1"}${won.includes(s) && r.gain ? " up" : ""}`, "data-seat": s },
    s === me ? t("you") : seatName(room, s), " ", el("b", {}, (view.levels || [])[s] ?? "?"),
    won.includes(s) && r.gain ? el("small", {}, ` ▲${r.gain}`) : null));
  return el("div", { class: "result friends", id: "handresult" },
    el("h3", {}, t("handOver", { n: r.number + 1 })),
    el("p", { class: "explain" }, t(bankerWon ? "bankerSideWon" : r.gain ? "collectorsWon" : "collectorsTakeOver", { names: names(room, won, me), n: r.gain || 0 })),
    el("p", { class: "sides" }, el("span", { class: "side0" }, t("bankerSideWas", { names: names(room, r.banker_side, me) }))),
    el("p", { class: "breakdown" }, parts),
    view.kitty ? el("div", { class: "kitty-line" }, el("small", {}, t("kitty"),
      r.kitty_multiplier ? ` ×${r.kitty_multiplier}` : ""), cardRow(view.kitty, { size: "table", ctx, markTrump: true })) : null,
    el("p", { class: "plevels" }, el("small", {}, `${t("levels")}: `), levels),
    view.phase === "match_over" ? null // the match is over: there is no next banker
      : el("p", { class: "muted small", id: "nextbanker" }, t("nextBankerIs", { name: r.next_banker === me ? t("you") : seatName(room, r.next_banker) })));
}

// The match's last hand has no next hand (a match of so many hands ends with it): its
// explanation names no next banker.
function lastHand(text) {
  return String(text || "").replace(/; next banker seat \d+/, "").replace(/; 下一局庄家: \d+号位/, "");
}

// The engine's explanation names seats by number: put the players' names in.
export function withNames(text, room) {
  return String(text || "")
    .replace(/next banker seat (\d)/g, (_, n) => `next banker: ${seatName(room, Number(n))}`)
    .replace(/\bseat (\d)(?!\d)/g, (_, n) => seatName(room, Number(n)))
    .replace(/(\d)号位/g, (_, n) => seatName(room, Number(n)));
}

function levelsAfter(r) {
  const bteam = r.banker % 2;
  const out = [null, null];
  out[bteam] = r.levels_after[0];
  out[1 - bteam] = r.levels_after[1];
  return out;
}

export function matchEnd(view, room) {
  if (isFriends(view, room)) return friendsMatchEnd(view, room);
  const w = view.winner;
  const head = w === null || w === undefined ? t("draw") : t("winners", { names: teamName(room, w) });
  const coins = view.coins && (view.coins[0] || view.coins[1]);
  return el("div", { class: "matchend", id: "matchend" },
    el("h2", {}, t("matchOver")), el("p", { class: "winner" }, head),
    el("p", {}, t("finalLevels"), ": ", [0, 1].map((team) => [team ? " · " : null, el("span", { class: `lv team${team}${w === team ? " champ" : ""}` },
      teamName(room, team), " ", el("b", {}, view.levels[team]))])),
    coins ? el("p", { class: "coins" }, t("coins"), ": ", [0, 1].map((team) => `${team ? " · " : ""}${teamName(room, team)} ${signed(view.coins[team])}`).join("")) : null,
    el("h3", {}, t("summary")),
    el("p", {}, summaryLine(view, room)));
}

function friendsMatchEnd(view, room) {
  const w = view.winner;
  const n = seatCount(view, room);
  const head = w === null || w === undefined ? t("draw") : t("playerWins", { name: seatName(room, w) });
  return el("div", { class: "matchend", id: "matchend" },
    el("h2", {}, t("matchOver")), el("p", { class: "winner" }, head),
    el("p", { class: "plevels" }, t("finalLevels"), ": ", [...Array(n).keys()].map((s) => [s ? " · " : null,
      el("span", { class: `lv${w === s ? " champ" : ""}` }, seatName(room, s), " ", el("b", {}, view.levels[s]))])));
}

function summaryLine(view, room) {
  const rows = view.score_sheet || [];
  const banked = [0, 0], gained = [0, 0];
  for (const r of rows) {
    banked[r.banker % 2] += 1;
    const team = r.side === "banker" ? r.banker % 2 : 1 - (r.banker % 2);
    gained[team] += r.gain || 0;
  }
  return [0, 1].map((team) => (lang === "zh"
    ? `${teamName(room, team)}: 坐庄 ${banked[team]} 局, 共升 ${gained[team]} 级。`
    : `${teamName(room, team)}: banker in ${banked[team]} of ${rows.length} hands, ${gained[team]} ${gained[team] === 1 ? "level" : "levels"} gained.`)).join(" ");
}

// A hand review (GET /api/rooms/{id}/review): the marked plays of `seat` in `hand`. During
// the match only your own seat, with your token; a refusal throws {code, text}.
export async function fetchReview(roomId, seat, hand, token) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  let r;
  try {
    r = await fetch(`/api/rooms/${roomId}/review?seat=${seat}&hand=${hand}`, { headers });
  } catch (_) { throw { code: "UNREACHABLE", text: { en: t("reviewOffline"), zh: t("reviewOffline") } }; }
  const body = await r.json().catch(() => null);
  if (!r.ok) throw (body && body.detail && body.detail.code ? body.detail : { code: "SERVER_ERROR", message: `HTTP ${r.status}` });
  return (body && body.marks) || [];
}

// A review as a panel. rv: {seat, hand, status: "loading" | "done" | "error", marks, error};
// opts: room (names), ctx (trumps), current (a view index to highlight), onPick(mark)
// (each mark a button: the replayer jumps there), retry().
export function reviewPanel(rv, opts = {}) {
  const head = el("h3", {}, t("reviewTitle", { name: seatName(opts.room, rv.seat), n: rv.hand + 1 }));
  let body;
  if (rv.status === "loading") {
    body = el("p", { class: "muted review-wait", id: "reviewstate", role: "status" }, el("span", { class: "spinner", "aria-hidden": "true" }), t("reviewing"));
  } else if (rv.status === "error") {
    body = el("div", { class: "row" }, el("p", { class: "msg", id: "reviewerror", role: "alert" }, errorText(rv.error)),
      opts.retry ? el("button", { class: "ghost small", id: "reviewretry", onclick: opts.retry }, t("reviewRetry")) : null);
  } else if (!rv.marks.length) {
    body = el("p", { class: "ok", id: "reviewnone", role: "status" }, t("reviewNone"));
  } else {
    body = el("ol", { class: "marks", id: "marks" }, rv.marks.map((m) => {
      const kids = [
        el("span", { class: "mtrick" }, t("reviewTrick", { n: m.trick })),
        el("span", { class: "mcards" }, el("small", {}, t("reviewPlayed")), cardRow(m.played, { size: "mini", ctx: opts.ctx, markTrump: !!opts.ctx })),
        el("span", { class: "mcards better" }, el("small", {}, t("reviewBetter")), cardRow(m.better, { size: "mini", ctx: opts.ctx, markTrump: !!opts.ctx })),
        el("b", { class: "mgain" }, t("reviewGain", { g: `+${m.gain.toFixed(2)}${m.se ? ` ± ${m.se.toFixed(2)}` : ""}` })),
        // why, then the line: read on touch screens too, no hover needed
        m.reason ? el("span", { class: "mreason", "data-code": m.reason.code }, pick(m.reason.text)) : null,
        el("small", { class: "mtext" }, pick(m.line || m.text)),
      ];
      const attrs = { class: "markrow", "data-view": m.view };
      return el("li", { class: `mark${opts.current === m.view ? " current" : ""}` },
        opts.onPick ? el("button", { ...attrs, type: "button", onclick: () => opts.onPick(m) }, kids) : el("div", attrs, kids));
    }));
  }
  return el("div", { class: "review", id: "review", "data-status": rv.status }, head, body,
    rv.status === "done" ? el("p", { class: "muted small" }, t("reviewNote")) : null);
}

// A hand as fans grouped by effective suit, trumps first and marked. `cards` are sorted;
// opts: sel(i), fresh(i), cursor(i), onclick(i) by position in `cards`.
export function handFan(cards, ctx, opts = {}) {
  const groups = [];
  cards.forEach((c, i) => {
    const s = ctx.suit(c);
    if (!groups.length || groups[groups.length - 1].suit !== s) groups.push({ suit: s, items: [] });
    groups[groups.length - 1].items.push([c, i]);
  });
  return groups.map((g) => el("div", { class: `fan-group${g.suit === 4 ? " trumps" : ""}`, "data-suit": g.suit },
    el("span", { class: "glabel" }, g.suit === 4 ? t("suit_4") : t(`suit_${"SHCD"[g.suit]}`)),
    el("div", { class: "fan" }, g.items.map(([c, i]) => cardEl(c, {
      size: "hand", trump: g.suit === 4,
      sel: opts.sel ? opts.sel(i) : false, fresh: opts.fresh ? opts.fresh(i) : false,
      cursor: opts.cursor ? opts.cursor(i) : false, onclick: opts.onclick ? () => opts.onclick(i) : null,
    })))));
}

export { cardEl, contextOf };
