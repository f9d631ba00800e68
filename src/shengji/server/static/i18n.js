// Every string of the browser app, in English and Chinese. Rule terms keep their Chinese
// names in English too. t(key, params) fills {name}s; tn(key, n) picks the plural form.

const EN = {
  brand: "Shengji", brandSub: "Shengji · Tractor", settings: "Settings", fourColor: "Four-colour suits (♣ green, ♦ blue)", cardSize: "Card size", size_small: "small", size_normal: "normal", size_large: "large", handOrder: "Hand order", trumpsLeft: "trumps first (left)", trumpsRight: "trumps last (right)", turnSound: "A sound when it is your turn", settingsKept: "Kept in this browser.",
  langButton: "中文",
  // home
  create: "New table", preset: "Rules", bots: "Seats", person: "a person", seat: "Seat",
  level_easy: "Easy", level_normal: "Normal", level_strong: "Strong", botLevel: "{level} · {name}",
  botMenu: "Bot in seat {n}", timer: "Turn timer",
  timerOff: "off", seconds: "{n} s", yes: "yes", no: "no", presetValue: "preset: {v}", changedRules_one: "1 rule changed by the host", changedRules_other: "{n} rules changed by the host", noChangedRules: "the preset's rules, unchanged", hintsOn: "hints allowed", hintsOff: "no hints", go: "Create the table", publicRoom: "List this table publicly", allowHints: "Hints allowed (the strongest bot's advice)",
  publicRooms: "Open tables", noRooms: "No public tables right now. Create one and invite friends with its link.",
  rulesOf: "Rules of {preset}", seedNote: "From seed text {seed}.", unchanged: "Reset to preset",
  ruleChanged: "changed", noLimit: "no limit", rulesUnavailable: "The rules of this preset could not be loaded.",
  status_lobby: "waiting", status_playing: "playing", status_finished: "finished",
  seatsTaken: "{n} of {m} seated",
  // join
  joinTitle: "Join the table", name: "Your name", join: "Sit down", watch: "Watch",
  joinFull: "The match has started: you can watch it.", toHome: "Go to the home page", roomSeats: "Seats", seatsFull: "Every seat is taken: you can watch.",
  // room
  invite: "Invite link", copy: "Copy", copyInvite: "Invite", copied: "Copied", spectatorsN_one: "1 watching",
  spectatorsN_other: "{n} watching", lobby: "Lobby", empty: "empty seat", you: "you", host: "host",
  ready: "Ready", notReady: "Not ready", isReady: "ready", notYetReady: "not ready",
  start: "Start the match", startWhy: "Every seat needs a person or a bot, and every person must be ready.",
  randomize: "Shuffle the teams", kick: "Remove", addBot: "Add a bot", removeBot: "Empty the seat",
  sitHere: "Sit here", team: "Team", teamA: "Team A", teamB: "Team B", partners: "{a} & {b}",
  away: "away, a bot plays", offline: "offline", paused: "Paused: nobody is connected. The match goes on when someone comes back.",
  // connection
  conn_connecting: "connecting…", conn_open: "connected", conn_lost: "connection lost, reconnecting in {n} s…",
  conn_retry: "reconnecting…", lostAct: "Connection lost: your actions wait until it is back.",
  conn_gone: "This table does not exist.",
  // table
  level: "Level", trump: "Trump", banker: "Banker", points: "Collectors' points", phase: "Phase",
  hand: "Hand", handN: "Hand {n}", nt: "no trump (无主)", undecided: "not yet",
  cards_one: "1 card", cards_other: "{n} cards", levels: "Levels", us: "us", them: "them",
  declarations: "Declarations (亮主)", declared: "declared", reinforced: "reinforced (上保险)",
  countered: "countered (反主)", changedOwn: "changed suit (改主)", bankerBadge: "banker (庄)", leads: "leads",
  winning: "winning", won: "won", trickPoints_one: "+{n} point", trickPoints_other: "+{n} points",
  lastTrick: "Last trick", handLog: "Hand log", handLogOf: "Hand {n} so far", inProgress: "being played", noDeclarations: "Nobody has declared yet.", lastTrickOf: "Last trick: {name} won", noTrickYet: "No trick played yet.",
  trickWonBy: "{name} wins the trick", close: "Close",
  throwFailedTag: "throw ✗",
  throwFailedNote: "{name}'s throw {tried} failed: {by} could beat part of it, so {played} was played.",
  throwPenaltyUp: "Penalty: the collectors get {n} points.",
  throwPenaltyDown: "Penalty: the collectors lose {n} points.",
  throwPenaltyStake: "Penalty: the thrower's side pays half the stake.",
  kitty: "Kitty (底牌)", yourKitty: "The kitty you buried", pickedUp: "picked up", buried: "buried",
  newFromKitty: "from the kitty", pointCards: "Point cards taken",
  appTitle: "Shengji · Tractor", soundOn: "sound on your turn: on (click to mute)",
  soundOff: "sound on your turn: off (click to turn on)",
  yourTurn: "Your turn", waitingFor: "Waiting for {name}", thinking: "{name} is thinking",
  selectHint: "Select cards, then play.", legal: "✓ can be played",
  hint: "Hint", hintTitle: "What the strongest bot would do here, and why (about a second)",
  hintThinking: "hint: thinking… (about a second)",
  play: "Play", pass: "Pass", bury: "Bury {n}", buryHint: "Choose {n} cards to bury (扣底).",
  declareWith: "Show", showHint: "You may show (亮主) or pass.", showBar: "Your shows",
  nextHand: "Next hand", waitingNext: "Waiting for {names} to press next hand",
  youPressed: "Waiting for the others",
  sheet: "Score sheet", result: "Result", sheetPoints: "Points", ntShort: "NT", kittyTimes: "kitty {pts} × {mult}",
  penalty: "penalty", coins: "Coins",
  collectorsTook: "Collectors took {n} points",
  handOver: "Hand {n} is over", matchOver: "Match over",
  winners: "{names} win the match!", draw: "The match is a draw.",
  finalLevels: "Final levels", summary: "Summary", record: "Download the record", replay: "Watch the replay",
  keys: "Keys: ← → move, space selects, Enter plays, Esc clears, L last trick, G hand log",
  // chat
  chat: "Chat", say: "Say something…", send: "Send", spectator: "spectator",
  // replay
  replayTitle: "Replay", prev: "◀ Back", next: "Next ▶", prevHand: "« Hand", nextHand2: "Hand »",
  step: "Step {i} of {n}", asSeat: "Show the hand of", narration: "Narration",
  replayUnavailable: "The replay opens when the match is over.",
  // hand review
  reviewMine: "Review my plays", reviewHand: "Review this hand", reviewTitle: "Review: {name}, hand {n}",
  reviewing: "Reviewing every play… (a few seconds)", reviewNone: "No clear mistakes found.",
  reviewTrick: "Trick {n}", reviewShort: "review", reviewHandN: "Review my plays of hand {n}", reviewPlayed: "played", reviewBetter: "better", reviewGain: "{g} levels",
  reviewRetry: "Try again", reviewOffline: "The server cannot be reached.",
  reviewNote: "Plays where the search bot's alternative is worth clearly more: at least 0.2 levels on average over sampled deals of the cards you could not see.",
  // phases
  phase_deal: "dealing", phase_before_kitty: "declaring", phase_bury: "burying the kitty",
  phase_after_burial: "counter-declaring", phase_play: "playing", phase_hand_over: "hand over",
  phase_match_over: "match over",
  // suits
  suit_S: "spades", suit_H: "hearts", suit_C: "clubs", suit_D: "diamonds", suit_4: "trumps (主)",
  bigJoker: "big joker (大王)", littleJoker: "little joker (小王)",
  // presets
  "preset_shuangsheng": "双升 Shuangsheng", "preset_shuangsheng-super": "超级双升 Super Shuangsheng",
  "preset_classic": "经典升级 Classic, 2 decks", "preset_classic-1deck": "经典升级 Classic, 1 deck",
  "preset_classic-3deck": "经典升级 Classic, 3 decks", "preset_shuangkou": "双抠 Shuangkou",
  "preset_tuolaji": "拖拉机 Tuolaji", "preset_tuolaji-4deck": "拖拉机 Tuolaji, 4 decks",
  "preset_botzone": "Botzone 双升 (Tractor)",
  // 找朋友 (finding friends)
  calls: "Friends (找朋友)", callsComing: "{name} is calling friends…", callsLater: "called after the burial", notYetFound: "not yet",
  callsTitle: "The banker's friend calls: whoever plays the named copy joins the banker's side",
  friendFound: "Friend found! {name} played {call} and joins {banker}'s side.",
  callNoFriend: "{name} played {call}: no new friend (already on the banker's side).",
  bankerCalled: "{name} calls {calls}: whoever plays it becomes the banker's friend.",
  youCalled: "You call {calls}: whoever plays it becomes your friend.",
  friendBadge: "friend (友)", friendTitle: "on the banker's side: played a called card", playerLevel: "this player's level", levelOf: "level {lv}",
  bankerSideWon: "The banker's side wins: {names} +{n}.", collectorsWon: "The collectors win: {names} +{n}.",
  collectorsTakeOver: "The collectors win: {names} take the bank.", bankerSideWas: "Banker's side: {names}",
  nextBankerIs: "Next banker: {name}", playerWins: "{name} wins the match!", levelNow: "Level now", sheetBankerMark: "B", sheetFriendMark: "F",
  sheetKey: "B banker · F friend · +n levels gained",
  callPrompt_one: "Call your friend: pick a card and which copy.", callPrompt_other: "Call {n} friends: pick a card and which copy for each.",
  callOpen: "Call friends…", callTitle: "Call your friends (找朋友)",
  callIntro: "Whoever plays the copy you name (counting every copy played from now on, yours too) joins your side when that trick ends. Nobody knows who your friends are until then.",
  callCard: "Card", callWhich: "Which copy", callN: "Friend {n}", callGo: "Call", youHold_one: "you hold 1", youHold_other: "you hold {n}", youHoldNone: "you hold none",
  callOwn: "you hold every copy: you would be your own friend", callSame: "the same call twice", shuffleSeats: "Shuffle the seats",
  "preset_zhaopengyou": "找朋友 Finding friends (4–8)",
  botName: "Bot {n}", botNameKind: "Bot {n} ({kind})",
  timeLeft: "time left to act", reading: "reading", pressNext: "Read the score sheet, then press Next hand.",
  reviewingTag: "reviewing", waitingReview: "Waiting for {names} (reviewing)",
  reviewHold: "The next hand waits for you while you read this, for at most",
  dealPace: "Deal", pace_slow: "slow", pace_normal: "normal", pace_fast: "fast",
  paceEvery: "a card every {n} s", dealPaceLine: "Deal: a card every {n} s", declareLimit: "{n} s to show after the deal",
  dealingShort: "Dealing {n}/{total}",
  showAnytime: "Show (亮主) whenever you like: the deal does not wait for anyone.",
  noShowYet: "Nothing to show yet: a level card ({level}) or a pair of jokers can be shown as it comes.",
  counterHint: "You may counter-declare (反主) or pass.",
  levelShort: "Lv", trumpShort: "Tr", pointsShort: "Pts",
  show_first: "Show", show_reinforce: "Reinforce (上保险)", show_counter: "Counter (反主)",
  throwWarn: "甩牌 (a throw): it stands only if nobody can beat any part of it; if someone can, only its smallest part is played and you pay the penalty.",
  takeBack: "Take back", takeBackTitle: "Take back your last show or play (before anyone else acts)",
  takeBackOn: "take-backs allowed", takeBackOff: "no take-backs", autoPlayOn: "forced plays made for you",
  allowTakeBack: "Take-backs allowed (your own last show or play, before the next seat acts)",
  allowAutoPlay: "Play forced moves by themselves (the only legal play; the last trick)",
  queuePlay: "Play when my turn comes", unqueue: "Cancel", queuedNote: "{cards} will be played when your turn comes",
  queueHint: "you may choose cards now", queuedFailed: "Your chosen cards could not be played: {why}",
  friendFoundYou: "Friend found! {name} played {call} and joins your side.",
  friendFoundMe: "Friend found! You played {call} and join {banker}'s side.",
  logKey: "One row a trick: who led, every play (★ the winner), the points. Tap a row for the details.",
  quickTitle: "Quick game", quickIntro: "You and three bots: the match starts at once.", quickLevel: "Bots", quickGo: "Play now",
  darkMode: "Dark mode (a darker table)", cardStyle: "Card style", style_classic: "classic", style_bold: "large index", style_plain: "plain, no shading",
  reducedMotion: "Reduced motion (no animations)",
};

const ZH = {
  brand: "升级", brandSub: "拖拉机", settings: "设置", fourColor: "四色花色 (♣ 绿, ♦ 蓝)", cardSize: "牌的大小", size_small: "小", size_normal: "中", size_large: "大", handOrder: "手牌顺序", trumpsLeft: "主牌在前 (左)", trumpsRight: "主牌在后 (右)", turnSound: "轮到你时响一声", settingsKept: "保存在这个浏览器里。",
  langButton: "EN",
  create: "开新桌", preset: "规则", bots: "座位", person: "真人", seat: "座位",
  level_easy: "简单", level_normal: "普通", level_strong: "强", botLevel: "{level} · {name}",
  botMenu: "座位 {n} 的机器人", timer: "出牌限时",
  timerOff: "不限", seconds: "{n} 秒", yes: "是", no: "否", presetValue: "原规则: {v}", changedRules_one: "房主改了 {n} 条规则", changedRules_other: "房主改了 {n} 条规则", noChangedRules: "规则未改动", hintsOn: "允许提示", hintsOff: "不允许提示", go: "开桌", publicRoom: "公开这张桌子", allowHints: "允许提示 (最强机器人的建议)",
  publicRooms: "公开的牌桌", noRooms: "现在没有公开的牌桌。开一桌, 把链接发给朋友吧。",
  rulesOf: "{preset} 的规则", seedNote: "出自规则原文 {seed}。", unchanged: "恢复预设",
  ruleChanged: "已修改", noLimit: "不限", rulesUnavailable: "无法载入这个规则的选项。",
  status_lobby: "等待中", status_playing: "进行中", status_finished: "已结束",
  seatsTaken: "已坐 {n}/{m}",
  joinTitle: "加入牌桌", name: "你的名字", join: "坐下", watch: "观战",
  joinFull: "比赛已经开始, 可以观战。", toHome: "回首页", roomSeats: "座位", seatsFull: "座位已满, 可以观战。",
  invite: "邀请链接", copy: "复制", copyInvite: "邀请", copied: "已复制", spectatorsN_one: "{n} 人观战",
  spectatorsN_other: "{n} 人观战", lobby: "大厅", empty: "空位", you: "你", host: "房主",
  ready: "准备", notReady: "取消准备", isReady: "已准备", notYetReady: "未准备",
  start: "开始比赛", startWhy: "每个座位都要有人或机器人, 每位玩家都要准备。",
  randomize: "随机分队", kick: "请离", addBot: "加机器人", removeBot: "清空座位",
  sitHere: "坐这里", team: "队", teamA: "A 队", teamB: "B 队", partners: "{a} 和 {b}",
  away: "离开, 机器人代打", offline: "离线", paused: "已暂停: 没有玩家在线。有人回来后继续。",
  conn_connecting: "连接中…", conn_open: "已连接", conn_lost: "连接断开, {n} 秒后重连…",
  conn_retry: "重新连接中…", lostAct: "连接断开: 恢复后才能操作。",
  conn_gone: "这张牌桌不存在。",
  level: "打", trump: "主", banker: "庄家", points: "闲家得分", phase: "阶段",
  hand: "局", handN: "第 {n} 局", nt: "无主", undecided: "未定",
  cards_one: "{n} 张", cards_other: "{n} 张", levels: "级数", us: "我方", them: "对方",
  declarations: "亮主记录", declared: "亮主", reinforced: "上保险",
  countered: "反主", changedOwn: "改主", bankerBadge: "庄", leads: "首出",
  winning: "最大", won: "赢", trickPoints_one: "+{n} 分", trickPoints_other: "+{n} 分",
  lastTrick: "上一轮", handLog: "本局记录", handLogOf: "第 {n} 局记录", inProgress: "进行中", noDeclarations: "还没有人亮主。", lastTrickOf: "上一轮: {name} 赢", noTrickYet: "还没有出过牌。",
  trickWonBy: "{name} 赢了这一轮", close: "关闭",
  throwFailedTag: "甩✗",
  throwFailedNote: "{name} 甩 {tried} 失败: {by} 管得住其中一部分, 改出 {played}。",
  throwPenaltyUp: "罚分: 抓分方得 {n} 分。",
  throwPenaltyDown: "罚分: 抓分方扣 {n} 分。",
  throwPenaltyStake: "罚: 甩牌方赔一半底金。",
  kitty: "底牌", yourKitty: "你扣的底牌", pickedUp: "拿起", buried: "扣下",
  newFromKitty: "底牌", pointCards: "闲家拿到的分牌",
  appTitle: "升级 · 拖拉机", soundOn: "轮到你时提示音: 开 (点击静音)",
  soundOff: "轮到你时提示音: 关 (点击打开)",
  yourTurn: "轮到你", waitingFor: "等待 {name}", thinking: "{name} 思考中",
  selectHint: "选好牌后出牌。", legal: "✓ 可以出",
  hint: "提示", hintTitle: "最强的机器人在这里会怎么打, 为什么 (约一秒)",
  hintThinking: "提示: 思考中… (约一秒)",
  play: "出牌", pass: "不亮", bury: "扣 {n} 张", buryHint: "选 {n} 张牌扣底。",
  declareWith: "亮", showHint: "可以亮主, 或者不亮。", showBar: "可亮的牌",
  nextHand: "下一局", waitingNext: "等待 {names} 按下一局",
  youPressed: "等待其他人",
  sheet: "记分表", result: "结果", sheetPoints: "得分", ntShort: "无主", kittyTimes: "底分 {pts} × {mult}",
  penalty: "罚分", coins: "底金",
  collectorsTook: "闲家得 {n} 分",
  handOver: "第 {n} 局结束", matchOver: "比赛结束",
  winners: "{names} 赢得比赛!", draw: "比赛打平。",
  finalLevels: "最终级数", summary: "比赛总结", record: "下载牌谱", replay: "看回放",
  keys: "按键: ← → 移动, 空格选牌, 回车出牌, Esc 取消, L 上一轮, G 本局记录",
  chat: "聊天", say: "说点什么…", send: "发送", spectator: "观众",
  replayTitle: "回放", prev: "◀ 上一步", next: "下一步 ▶", prevHand: "« 上一局", nextHand2: "下一局 »",
  step: "第 {i}/{n} 步", asSeat: "看谁的牌", narration: "文字记录",
  replayUnavailable: "比赛结束后才能看回放。",
  reviewMine: "复盘我的出牌", reviewHand: "复盘本局", reviewTitle: "复盘: {name}, 第 {n} 局",
  reviewing: "正在逐手复盘… (需要几秒)", reviewNone: "没有发现明显失误。",
  reviewTrick: "第 {n} 轮", reviewShort: "复盘", reviewHandN: "复盘我在第 {n} 局的出牌", reviewPlayed: "出了", reviewBetter: "更好", reviewGain: "{g} 级",
  reviewRetry: "再试一次", reviewOffline: "连不上服务器。",
  reviewNote: "标出的是搜索机器人的另一种出法明显更好的牌: 在对看不见的牌的多次抽样中平均至少多得 0.2 级。",
  phase_deal: "发牌", phase_before_kitty: "亮主", phase_bury: "扣底",
  phase_after_burial: "反主", phase_play: "出牌", phase_hand_over: "本局结束",
  phase_match_over: "比赛结束",
  suit_S: "黑桃", suit_H: "红桃", suit_C: "梅花", suit_D: "方块", suit_4: "主牌",
  bigJoker: "大王", littleJoker: "小王",
  "preset_shuangsheng": "双升", "preset_shuangsheng-super": "超级双升",
  "preset_classic": "经典升级 (两副)", "preset_classic-1deck": "经典升级 (一副)",
  "preset_classic-3deck": "经典升级 (三副)", "preset_shuangkou": "双抠", "preset_tuolaji": "拖拉机",
  "preset_tuolaji-4deck": "拖拉机 (四副)", "preset_botzone": "Botzone 双升",
  calls: "找朋友", callsComing: "{name} 正在叫朋友…", callsLater: "扣底后叫朋友", notYetFound: "还没出",
  callsTitle: "庄家叫的朋友牌: 谁出了这张牌, 谁就是庄家的朋友",
  friendFound: "朋友出来了! {name} 出了{call}, 和 {banker} 一伙。",
  callNoFriend: "{name} 出了{call}: 没有新朋友 (已经在庄家一方)。",
  bankerCalled: "{name} 叫朋友: {calls}。谁出了这张牌, 谁就是庄家的朋友。",
  youCalled: "你叫朋友: {calls}。谁出了这张牌, 谁就是你的朋友。",
  friendBadge: "朋友", friendTitle: "庄家一方: 出了叫的朋友牌", playerLevel: "这位玩家的级数", levelOf: "打{lv}",
  bankerSideWon: "庄家一方赢了: {names} 升{n}级。", collectorsWon: "抓分方赢了: {names} 升{n}级。",
  collectorsTakeOver: "抓分方赢了: {names} 上台。", bankerSideWas: "庄家一方: {names}",
  nextBankerIs: "下一局庄家: {name}", playerWins: "{name} 赢得比赛!", levelNow: "现在打", sheetBankerMark: "庄", sheetFriendMark: "友",
  sheetKey: "庄 庄家 · 友 朋友 · +n 升级数",
  callPrompt_one: "叫朋友: 选一张牌和第几张。", callPrompt_other: "叫 {n} 个朋友: 每个选一张牌和第几张。",
  callOpen: "叫朋友…", callTitle: "叫朋友 (找朋友)",
  callIntro: "从现在起谁出了你叫的那一张 (每一张都算, 包括你自己出的), 这一轮结束时就成为你的朋友。在那之前谁都不知道谁是朋友。",
  callCard: "牌", callWhich: "第几张", callN: "朋友 {n}", callGo: "叫", youHold_one: "你有 1 张", youHold_other: "你有 {n} 张", youHoldNone: "你没有",
  callOwn: "你有全部几张: 会是你自己当朋友", callSame: "同一个叫了两次", shuffleSeats: "打乱座位",
  "preset_zhaopengyou": "找朋友 (4–8 人)",
  botName: "机器人 {n}", botNameKind: "机器人 {n} ({kind})",
  timeLeft: "剩余时间", reading: "看分中", pressNext: "看完记分表后按下一局。",
  reviewingTag: "复盘中", waitingReview: "等待 {names} (正在复盘)",
  reviewHold: "你看复盘时, 下一局会等你, 最多再等",
  dealPace: "发牌速度", pace_slow: "慢", pace_normal: "中", pace_fast: "快",
  paceEvery: "每 {n} 秒一张", dealPaceLine: "发牌: 每 {n} 秒一张", declareLimit: "发完牌后亮主限时 {n} 秒",
  dealingShort: "发牌 {n}/{total}",
  showAnytime: "随时可以亮主, 发牌不等人。",
  noShowYet: "还没有可亮的牌: 摸到级牌 ({level}) 或一对王就可以亮。",
  counterHint: "可以反主, 或者不亮。",
  levelShort: "级", trumpShort: "主", pointsShort: "分",
  show_first: "亮主", show_reinforce: "上保险", show_counter: "反主",
  throwWarn: "这是甩牌: 只有别人都管不上时才成立; 否则只出其中最小的一手, 还要罚分。",
  takeBack: "悔牌", takeBackTitle: "收回你刚亮的主或刚出的牌 (别人还没动之前)",
  takeBackOn: "允许悔牌", takeBackOff: "不允许悔牌", autoPlayOn: "只有一种出法时自动出",
  allowTakeBack: "允许悔牌 (收回自己刚亮的主或刚出的牌, 下家还没动之前)",
  allowAutoPlay: "自动出牌 (只有一种合法出法时; 最后一轮)",
  queuePlay: "轮到我时出", unqueue: "取消", queuedNote: "轮到你时自动出 {cards}",
  queueHint: "现在就可以选牌", queuedFailed: "选好的牌不能出: {why}",
  friendFoundYou: "朋友出来了! {name} 出了{call}, 和你一伙。",
  friendFoundMe: "朋友出来了! 你出了{call}, 和 {banker} 一伙。",
  logKey: "每轮一行: 谁先出, 各家出的牌 (★ 赢家), 分数。点一行看详情。",
  quickTitle: "快速开始", quickIntro: "你和三个机器人, 马上开打。", quickLevel: "机器人", quickGo: "开始",
  darkMode: "深色模式 (更暗的牌桌)", cardStyle: "牌面样式", style_classic: "经典", style_bold: "大字", style_plain: "简洁, 无阴影",
  reducedMotion: "减少动画",
};

// Messages for error codes when the server did not send `text` (older servers, HTTP errors).
const ERRORS = {
  en: {
    NOT_READY: "Every person must press Ready first.", SEATS_EMPTY: "Fill every seat with a person or a bot first.",
    NOT_HOST: "Only the host can do that.", ILLEGAL_CALL: "That friend call is not allowed.", BAD_SEAT: "There is no such seat at this table.", NOT_YOUR_TURN: "It is not your turn.",
    MUST_FOLLOW_SUIT: "You must follow the led suit.", MUST_FOLLOW_FORMAT: "You must follow the lead's pairs or tractors.",
    WRONG_CARD_COUNT: "Play as many cards as the lead.", CARDS_NOT_IN_HAND: "You do not hold those cards.",
    MIXED_SUITS: "A lead must be of one suit (or all trumps).", EMPTY_PLAY: "Select some cards first.",
    THROW_FAILED: "The throw (甩牌) failed.", ILLEGAL_DECLARATION: "That show is not allowed now.",
    ILLEGAL_ACTION: "That is not allowed now.", STALE_REVISION: "The table changed: look again.",
    SEAT_TAKEN: "That seat is taken.", ROOM_FULL: "Every seat is taken: you can watch.",
    ROOM_STARTED: "The match has started: you can watch.", BAD_TOKEN: "Your seat was not found; join again.",
    NO_ROOM: "This table does not exist.", NOT_FINISHED: "The replay opens when the match is over.",
    UNKNOWN_OPTION: "Unknown rule option.", BAD_OPTION_VALUE: "A rule option has a value it cannot take.",
    UNKNOWN_PRESET: "Unknown rules.", NOT_SEATED: "Take a seat first.", NOT_IN_LOBBY: "Only before the match starts.",
    NOT_PLAYING: "The match is not being played.", NOT_KICKABLE: "Only another person can be removed.",
    REVIEW_BUSY: "The reviewer is busy with other hands: try again in a moment.", HINT_BUSY: "The adviser is busy with other hints: try again in a moment.", HINTS_OFF: "The host made this table one without hints.", TAKE_BACK_OFF: "The host made this table one without take-backs.", TAKE_BACK_TOO_LATE: "Too late to take that back: only your own last show or play, before anyone else acts.", BAD_HAND: "That hand is not over yet.",
  },
  zh: {
    NOT_READY: "每位玩家都要先按准备。", SEATS_EMPTY: "每个座位都要有人或机器人。",
    NOT_HOST: "只有房主可以这样做。", ILLEGAL_CALL: "不能这样叫朋友。", BAD_SEAT: "这张桌上没有这个座位。", NOT_YOUR_TURN: "还没轮到你。",
    MUST_FOLLOW_SUIT: "必须跟出首家的花色。", MUST_FOLLOW_FORMAT: "必须跟出对子或拖拉机。",
    WRONG_CARD_COUNT: "出牌张数要和首家相同。", CARDS_NOT_IN_HAND: "你没有这些牌。",
    MIXED_SUITS: "首出必须是同一花色 (或都是主牌)。", EMPTY_PLAY: "请先选牌。",
    THROW_FAILED: "甩牌失败。", ILLEGAL_DECLARATION: "现在不能这样亮主。",
    ILLEGAL_ACTION: "现在不能这样做。", STALE_REVISION: "牌桌已变化, 请再看一下。",
    SEAT_TAKEN: "这个座位有人了。", ROOM_FULL: "座位已满, 可以观战。",
    ROOM_STARTED: "比赛已开始, 可以观战。", BAD_TOKEN: "找不到你的座位, 请重新加入。",
    NO_ROOM: "这张牌桌不存在。", NOT_FINISHED: "比赛结束后才能看回放。",
    UNKNOWN_OPTION: "没有这个规则选项。", BAD_OPTION_VALUE: "规则选项的值不对。",
    UNKNOWN_PRESET: "没有这个规则。", NOT_SEATED: "请先坐下。", NOT_IN_LOBBY: "只能在比赛开始前。",
    NOT_PLAYING: "比赛没有在进行。", NOT_KICKABLE: "只能请离其他玩家。",
    REVIEW_BUSY: "复盘正忙于别的牌局, 请稍后再试。", HINT_BUSY: "提示正忙于别的请求, 请稍后再试。", HINTS_OFF: "房主设定这张桌子不能用提示。", TAKE_BACK_OFF: "房主设定这张桌子不能悔牌。", TAKE_BACK_TOO_LATE: "来不及悔了: 只能收回自己刚亮的主或刚出的牌, 而且别人还没有动。", BAD_HAND: "这一局还没有打完。",
  },
};

const TABLES = { en: EN, zh: ZH };
const listeners = [];

export let lang = (() => {
  try {
    const saved = localStorage.getItem("shengji:lang");
    if (saved === "en" || saved === "zh") return saved;
  } catch (_) { /* storage may be off */ }
  return (navigator.language || "zh").toLowerCase().startsWith("zh") ? "zh" : "en";
})();

export function setLang(l) {
  lang = l;
  try { localStorage.setItem("shengji:lang", l); } catch (_) { /* ignore */ }
  document.documentElement.lang = l === "zh" ? "zh-CN" : "en";
  for (const f of listeners) f(l);
}

export function onLang(f) { listeners.push(f); }

export function t(key, params = {}) {
  const table = TABLES[lang];
  let s = table[key] ?? EN[key] ?? key;
  for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

export function tn(key, n, params = {}) {
  return t(`${key}_${n === 1 ? "one" : "other"}`, { n, ...params });
}

// Both languages of a {en, zh} object, or a string.
export function pick(text) {
  if (text === null || text === undefined) return "";
  if (typeof text === "string") return text;
  return text[lang] ?? text.en ?? "";
}

export function presetTitle(name) {
  const k = `preset_${name}`;
  const s = t(k);
  return s === k ? name : s;
}

const SUIT_SYMBOL = { S: "♠", H: "♥", C: "♣", D: "♦" };
export const suitSymbol = (s) => SUIT_SYMBOL[s] || s;

// A raw engine message with suit letters made readable ("S card(s)" -> "♠ cards").
function prettify(msg) {
  return String(msg || "")
    .replace(/\b([SHCD])(10|[2-9JQKA])\b/g, (_, s, r) => SUIT_SYMBOL[s] + r)
    .replace(/\b([SHCD])\b(?= card)/g, (_, s) => SUIT_SYMBOL[s])
    .replace(/card\(s\)/g, "cards");
}

// The message for an error frame or HTTP error detail: the server's own words in this
// language when it sent them, else ours, else the raw message.
export function errorText(err) {
  if (!err) return "";
  if (err.text) return pick(err.text);
  const mine = ERRORS[lang][err.code];
  if (mine) return lang === "en" && err.message ? `${mine} ${prettify(err.message)}` : mine;
  return prettify(err.message) || err.code;
}

// Optional: more error texts from the server's catalogue (GET /api/i18n) when present.
export async function loadServerCatalogue() {
  try {
    const r = await fetch("/api/i18n");
    if (!r.ok) return;
    const cat = await r.json();
    for (const [k, v] of Object.entries(cat)) {
      const code = k.startsWith("error.") ? k.slice(6) : k;
      if (/^[A-Z_]+$/.test(code) && v && v.en && v.zh && !v.en.includes("{")) {
        ERRORS.en[code] = ERRORS.en[code] || v.en;
        ERRORS.zh[code] = ERRORS.zh[code] || v.zh;
      }
    }
  } catch (_) { /* the app works without it */ }
}
