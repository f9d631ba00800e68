"""Every rule option of a preset, described for a rules form (labels and one-line help in
English and Chinese; rule terms keep their Chinese names).

:func:`option_schema` is pure data: the web server serves it as ``GET /api/presets/{name}``
and the browser builds its rules form from it (one labelled control per option).

>>> s = option_schema("shuangsheng")
>>> s["name"], s["seed"], s["title"]["zh"]
('shuangsheng', '000, 004', '双升')
>>> [o["name"] for o in s["options"]][:3]
['decks', 'start_level', 'constant_twos']
>>> next(o for o in s["options"] if o["name"] == "max_gain")["value"]
3
>>> option_schema("tuolaji", lang_independent=False, lang="zh")["options"][0]["label"]
'副数'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from ..rules.cards import rank_text
from ..rules.options import _CHOICES, RuleOptions
from ..rules.presets import load_preset, preset_description, preset_seed

Text = dict[str, str]
LEVELS = [rank_text(r) for r in range(2, 15)]


def _t(en: str, zh: str) -> Text:
    return {"en": en, "zh": zh}


#: Preset names for people (rule names stay Chinese in English too).
PRESET_TITLES: dict[str, Text] = {
    "shuangsheng": _t("双升 Shuangsheng", "双升"),
    "shuangsheng-super": _t("超级双升 Super Shuangsheng", "超级双升"),
    "classic": _t("经典升级 Classic, 2 decks", "经典升级 (两副)"),
    "classic-1deck": _t("经典升级 Classic, 1 deck", "经典升级 (一副)"),
    "classic-3deck": _t("经典升级 Classic, 3 decks", "经典升级 (三副)"),
    "shuangkou": _t("双抠 Shuangkou", "双抠"),
    "tuolaji": _t("拖拉机 Tuolaji", "拖拉机"),
    "tuolaji-4deck": _t("拖拉机 Tuolaji, 4 decks", "拖拉机 (四副)"),
    "botzone": _t("Botzone 双升 (Tractor)", "Botzone 双升"),
    "zhaopengyou": _t("找朋友 Finding Friends, 4–8 players", "找朋友 (4–8 人)"),
}

#: One line about each preset, in both languages.
PRESET_ABOUT: dict[str, Text] = {
    "shuangsheng": _t(
        "Two decks; 抢报, 上保险, 反主反打 in the first hand, 反主炒底 later; "
        "played for coins; 10 hands.",
        "两副牌; 抢报, 上保险, 首局反主反打, 之后反主炒底; 输赢金币; 共 10 局。",
    ),
    "shuangsheng-super": _t(
        "双升 with the super level table: up to 6 levels in one hand; coins double with "
        "each 反主; 10 hands.",
        "双升, 用超级升级表: 一局最多升 6 级; 每次反主金币翻番; 共 10 局。",
    ),
    "classic": _t(
        "Two decks; the first level card takes the banker, only stronger shows after.",
        "两副牌; 先亮级牌者坐庄, 之后只能更强的亮主。",
    ),
    "classic-1deck": _t(
        "One deck, 12 cards each, kitty 6; classic declaring.",
        "一副牌, 每人 12 张, 底牌 6 张; 经典亮主。",
    ),
    "classic-3deck": _t(
        "Three decks: triples, Titanics (连三张) and the show ladder.",
        "三副牌: 三张、连三张和亮主阶梯。",
    ),
    "shuangkou": _t(
        "Start at 3, 2s are trumps, must-play levels (必打), 钩底, per-card throw penalty.",
        "从 3 打起, 2 为常主, 必打级, 钩底, 甩牌按张罚分。",
    ),
    "tuolaji": _t(
        "The first level card sets trump; pairs override or lock; no declaration plays 无主.",
        "先亮级牌定主; 对子可反或锁主; 无人亮主则打无主。",
    ),
    "tuolaji-4deck": _t(
        "拖拉机 with four decks: four of a kind (quads) and quad tractors; kitty 8.",
        "四副牌的拖拉机: 四张 (四张相同的牌) 和连四张拖拉机; 底牌 8 张。",
    ),
    "botzone": _t(
        "Botzone's Tractor: always level 2, one single declaration and one pair override, "
        "no tractors of level cards, a failed throw plays one card.",
        "Botzone 双升: 总是打 2, 一次单张亮主和一次对子反主, 级牌不连拖拉机, 甩牌失败只出一张。",
    ),
    "zhaopengyou": _t(
        "5 to 8 players, one deck per two; shows rank by their number of cards; after "
        'burying, the banker calls friend cards ("the 2nd ♠A") and whoever plays one joins '
        "the banker's side; everyone has their own level.",
        '5 到 8 人, 每两人一副牌; 亮主先比张数; 庄家扣底后叫朋友 (如 "第2张♠A"), '
        "谁出了那张牌谁就是庄家的朋友; 每人各自升级。",
    ),
}

_TYPES: dict[str, str] = {
    "decks": "int",
    "start_level": "choice",
    "constant_twos": "bool",
    "joker_links_level": "bool",
    "kitty_multiplier": "choice",
    "throw_penalty": "choice",
    "level_table": "choice",
    "max_gain": "optional_int",
    "must_play_levels": "levels",
    "j_hook": "bool",
    "match_end": "choice",
    "no_declaration": "choice",
    "counter_takes_banker": "bool",
    "declaring": "choice",
    "match_hands": "optional_int",
    "coins": "bool",
    "base_stake": "int",
    "stake_doubling": "bool",
    "level_cards_link": "bool",
    "throw_forced": "choice",
    "fixed_level": "optional_int",
    "players": "int",
    "friends": "bool",
    "friend_calls": "optional_int",
    "throw_penalty_side": "choice",
    "small_side_bonus": "int",
    "call_trump_suit": "bool",
    "friend_passes_ace": "bool",
    "follow_shorter_tractor": "bool",
    "weak_redeal": "optional_int",
}

_RANGES: dict[str, tuple[int, int | None]] = {
    "decks": (1, 4),
    "max_gain": (1, None),
    "match_hands": (1, None),
    "base_stake": (0, None),
    "fixed_level": (2, 14),
    "players": (4, 8),
    "friend_calls": (1, 3),
    "small_side_bonus": (0, 3),
    "weak_redeal": (2, 14),
}

_LABELS: dict[str, Text] = {
    "decks": _t("Decks", "副数"),
    "start_level": _t("Starting level", "起始级"),
    "constant_twos": _t("2s are trumps (2为常主)", "2为常主"),
    "joker_links_level": _t("Jokers link the level pair (王连级牌)", "王连级牌"),
    "kitty_multiplier": _t("Kitty multiplier (扣底倍数)", "扣底倍数"),
    "throw_penalty": _t("Failed throw penalty (甩牌罚分)", "甩牌罚分"),
    "level_table": _t("Level table (升级表)", "升级表"),
    "max_gain": _t("Most levels in one hand (封顶)", "最多升级 (封顶)"),
    "must_play_levels": _t("Must-play levels (必打)", "必打级"),
    "j_hook": _t("J hook (钩底)", "钩底"),
    "match_end": _t("Match end (终局)", "终局"),
    "no_declaration": _t("When nobody declares (无人亮主)", "无人亮主"),
    "counter_takes_banker": _t("Counter takes the banker (反主反台)", "反主反台"),
    "declaring": _t("Declaring rules (亮主规则)", "亮主规则"),
    "match_hands": _t("Hands in the match (局数)", "局数"),
    "coins": _t("Play for coins (金币)", "金币"),
    "base_stake": _t("Coins per hand (底金)", "底金"),
    "stake_doubling": _t("Stake doubles per 反主 (反主翻番)", "反主金币翻番"),
    "level_cards_link": _t("Level cards link in tractors (级牌连拖拉机)", "级牌连拖拉机"),
    "throw_forced": _t("What a failed throw plays (甩牌失败出牌)", "甩牌失败出牌"),
    "fixed_level": _t("Fixed level (固定级)", "固定打几"),
    "players": _t("Players", "人数"),
    "friends": _t("Find friends (找朋友)", "找朋友"),
    "friend_calls": _t("Friends called (叫朋友数)", "叫几个朋友"),
    "throw_penalty_side": _t(
        "Whose side a failed throw's penalty counts for (甩牌罚分归属)", "甩牌罚分归属"
    ),
    "small_side_bonus": _t("Bonus levels for a smaller banker side (人少加级)", "庄家方人少加级"),
    "call_trump_suit": _t("Trump-suit cards may be called (可叫主花色)", "可叫主花色的牌"),
    "friend_passes_ace": _t("A friend at A passes A (朋友过A)", "朋友过A"),
    "follow_shorter_tractor": _t(
        "A shorter tractor must follow a tractor (跟短拖拉机)", "必须跟短拖拉机"
    ),
    "weak_redeal": _t("Redeal a weak hand (完全造反)", "完全造反 (弱牌重发)"),
}

_HELP: dict[str, Text] = {
    "decks": _t(
        "How many decks are shuffled together; 1–4 decks give a kitty of 6, 8, 6, 8 cards.",
        "几副牌一起洗; 1–4 副牌的底牌分别为 6、8、6、8 张。",
    ),
    "start_level": _t(
        "The level (rank) both teams start at.",
        "双方开始时打的级。",
    ),
    "constant_twos": _t(
        "Every 2 is a trump, just below the level cards (no effect at level 2).",
        "所有的 2 都是主牌, 排在级牌之下 (打 2 时无影响)。",
    ),
    "joker_links_level": _t(
        "A pair of small jokers links to the trump-suit level pair in a tractor (拖拉机).",
        "小王对子可以和主花色级牌对子连成拖拉机。",
    ),
    "kitty_multiplier": _t(
        "Collectors who win the last trick take the kitty's points times a multiplier set by "
        "the lead's largest unit: linear ×2 per card (3-link tractor ×12), "
        "doubling ×2·2^links (3-link tractor ×16); widest: doubling, counted on the widest "
        "unit (a triple before a tractor); all cards: ×2 per card of the whole last lead "
        "(pair + single thrown ×6).",
        "闲家赢最后一轮时, 底分乘以倍数, 由最后一手最大牌型决定: 按张数每张 ×2 (三连对 ×12), "
        "或按连数加倍 (三连对 ×16); 先看同张数: 按连数加倍, 3同张先于拖拉机; "
        "或按最后一手全部张数每张 ×2 (甩一对加一张 ×6)。",
    ),
    "throw_penalty": _t(
        "What a failed throw (甩牌) costs: nothing, 10 points per beaten card, "
        "10 points per attempt, or coins.",
        "甩牌失败的代价: 不罚, 每张被管住的牌罚 10 分, 每次罚 10 分, 或罚底金。",
    ),
    "level_table": _t(
        "How the collectors' points turn into levels for one side.",
        "闲家得分如何换算成升级。",
    ),
    "max_gain": _t(
        "The most levels either side can go up in one hand; empty = no cap.",
        "一局最多升几级; 留空 = 不封顶。",
    ),
    "must_play_levels": _t(
        "Levels a team must win as banker before it can go past them.",
        "必须坐庄打过才能越过的级。",
    ),
    "j_hook": _t(
        "At level J, collectors who win the last trick with a J send the banker team down "
        "to 7 (a single J) or 3 (a pair).",
        "打 J 时, 闲家用 J 赢最后一轮, 庄家方降到 7 (单 J) 或 3 (对 J)。",
    ),
    "match_end": _t(
        "defend A: win a hand as banker at A; reach A: first to go up to A; "
        "wrap: past A back to 2, the match lasts a number of hands.",
        "守 A: 坐庄打过 A 才赢; 到 A: 先升到 A 者赢; 循环: 过 A 回到 2, 按局数结束。",
    ),
    "no_declaration": _t(
        "If nobody declares trump: the 3rd or 4th kitty card sets it, play 无主, or redeal.",
        "无人亮主时: 翻底牌第 3 或第 4 张定主, 打无主, 或重新发牌。",
    ),
    "counter_takes_banker": _t(
        "In the first hand, a stronger show before the kitty is taken also takes the banker.",
        "首局扣底前被更强的亮主反掉时, 反主者坐庄。",
    ),
    "declaring": _t(
        "Which declaring system (亮主, 反主, 上保险, 定主, 反底) the hand uses; count and "
        "ladder play 双升's turns with shows ranked by their number of cards.",
        "使用哪种亮主规则 (亮主, 反主, 上保险, 定主, 反底); 比张数和阶梯按双升的时机, "
        "亮主先比张数。",
    ),
    "match_hands": _t(
        "Hands in a match that never ends by levels (wrap); empty = no limit.",
        "不以升级结束的比赛 (循环) 打几局; 留空 = 不限。",
    ),
    "coins": _t(
        "Each hand is played for coins: the losing team pays the stake to the winners.",
        "每局输赢金币: 输方付给赢方底金。",
    ),
    "base_stake": _t(
        "Coins a hand is played for (with coins on); a coin throw penalty costs half of it.",
        "每局的底金 (开启金币时); 甩牌失败罚底金时罚一半。",
    ),
    "stake_doubling": _t(
        "The stake doubles with each 反主 (超级双升).",
        "每次反主, 底金翻倍 (超级双升)。",
    ),
    "level_cards_link": _t(
        "Level cards (and 2s that are trumps) link in tractors with the trump suit, each "
        "other and the jokers; off: among trumps only the trump suit's plain cards and the "
        "joker pair (LJ LJ BJ BJ) make tractors.",
        "级牌 (和常主 2) 可以和主花色、彼此以及王连成拖拉机; 关闭时主牌里只有主花色的普通牌和"
        "大小王对 (小王对 + 大王对) 能连。",
    ),
    "throw_forced": _t(
        "After a failed throw (甩牌): play the lowest beaten unit of the largest kind, "
        "just one card (the lowest card of the lowest beaten unit), or the smallest beaten "
        "unit (fewest cards, then the lowest).",
        "甩牌失败后: 出被管住的最大牌型中最小的一组, 只出一张 (被管住的最小一组中最小的牌), "
        "或出被管住的最小一组 (张数最少, 再比大小)。",
    ),
    "fixed_level": _t(
        "Every hand is played at this level, whatever the teams' levels; empty = the banker "
        "team's level.",
        "每局都打这个级, 不管双方打到几; 留空 = 打庄家方的级。",
    ),
    "players": _t(
        "Seats at the table: 4, or 5 to 8 with 找朋友; in 找朋友 changing it also sets one "
        "deck per two players unless the decks are set too.",
        "座位数: 4 人, 或 找朋友 时 5 到 8 人; "
        "找朋友 时改人数也会改成每两人一副牌 (除非同时设了副数)。",
    ),
    "friends": _t(
        "No fixed partners: after burying, the banker calls cards, and whoever plays the "
        "called copy joins the banker's side when that trick ends; each player has their own "
        "level.",
        "没有固定对家: 庄家扣底后叫牌, 谁出了叫到的那张牌, 那一轮结束时就加入庄家一方; "
        "每人各自升级。",
    ),
    "friend_calls": _t(
        "How many friends the banker calls; empty = keep the banker's side no larger than the "
        "other (4–5 players: 1, 6–7: 2, 8: 3).",
        "庄家叫几个朋友; 留空 = 让庄家一方不多于另一方 (4–5 人: 1, 6–7 人: 2, 8 人: 3)。",
    ),
    "throw_penalty_side": _t(
        "找朋友: a failed throw's point penalty counts for the side the thrower is on at the "
        "end of the hand (a hidden friend gains nothing by failing throws), or for the side "
        "known when throwing.",
        "找朋友: 甩牌失败的罚分算在甩牌人一局结束时所在的一方 (暗藏的朋友甩牌失败占不到便宜), "
        "或算在甩牌时已知的一方。",
    ),
    "small_side_bonus": _t(
        "找朋友: levels a winning banker's side gains on top when it ended smaller than the "
        "banker and all the friends called (a friend not found, or the banker's own card).",
        "找朋友: 庄家方赢了、而人数少于庄家加所叫的朋友 (朋友没找到, 或叫到自己) 时多升几级。",
    ),
    "call_trump_suit": _t(
        "找朋友: the banker may call cards of the trump suit (never jokers or level cards).",
        "找朋友: 庄家可以叫主花色的牌当朋友牌 (王和级牌总是不能叫)。",
    ),
    "friend_passes_ace": _t(
        "找朋友, defend A: a friend at A whose side wins passes A and wins the match, as the "
        "banker does.",
        "找朋友, 守 A: 打到 A 的朋友所在的庄家方赢了, 这个朋友也算过 A 赢得比赛, 跟庄家一样。",
    ),
    "follow_shorter_tractor": _t(
        "Following a longer tractor without one as long: play the longest shorter tractor "
        "held (then pairs), not any pairs.",
        "跟更长的拖拉机而没有一样长的: 必须先出手里最长的短拖拉机 (再出对子), 不能随便出对子。",
    ),
    "weak_redeal": _t(
        "A hand whose trumps are all plain trump-suit cards no higher than this rank (no "
        "joker, level card or trump 2) is redealt once the trump is known; empty = never.",
        "定主以后, 谁的主牌都是不大于这一级的主花色普通牌 (没有王、级牌或常主 2), "
        "就重新发牌; 留空 = 不重发。",
    ),
}

_CHOICE_LABELS: dict[str, dict[str, Text]] = {
    "kitty_multiplier": {
        "linear": _t("linear (×2 per card)", "按张数 (每张 ×2)"),
        "doubling": _t("doubling (×2 per link)", "按连数加倍"),
        "widest": _t(
            "doubling, widest unit first (Titanic, triple, tractor, pair)",
            "按连数加倍, 先看同张数 (Titanic, 3同张, 拖拉机, 对)",
        ),
        "card_count": _t(
            "cards of the lead (a throw: ×2 its largest unit)", "按首家出牌张数 (甩牌: 最大一组 ×2)"
        ),
        "all_cards": _t(
            "×2 per card of the last lead (a throw: all its cards)",
            "按最后一手张数每张 ×2 (甩牌算全部)",
        ),
    },
    "throw_penalty": {
        "none": _t("none", "不罚"),
        "per_card": _t("10 per beaten card", "每张罚 10 分"),
        "per_attempt": _t("10 per failed throw", "每次罚 10 分"),
        "stake": _t("coins (half the stake)", "罚底金 (一半)"),
        "flat_per_card": _t("10 per card of the beaten units", "被管住的每张牌罚 10 分"),
    },
    "level_table": {
        "standard": _t("standard (40-point steps)", "标准 (每 40 分一级)"),
        "super": _t("super (up to 6 levels)", "超级 (最多 6 级)"),
        "classic": _t("classic, 2 decks", "经典 (两副)"),
        "classic-1deck": _t("classic, 1 deck", "经典 (一副)"),
        "classic-3deck": _t("classic, 3 decks", "经典 (三副)"),
        "classic-1deck-45": _t(
            "classic, 1 deck: 45 points or the last trick (40: a draw)",
            "经典 (一副): 抢够 45 分或最后一手 (40 分平局)",
        ),
        "shuangkou": _t("双抠 (160-200: collectors +2)", "双抠 (160-200 分: 闲家升 2 级)"),
        "botzone": _t("Botzone (40-point steps, up to 3)", "Botzone (每 40 分一级, 最多 3 级)"),
        "standard-fixed": _t(
            "standard in fixed 40-point steps, any decks", "标准, 不论几副牌都每 40 分一级"
        ),
    },
    "match_end": {
        "defend_ace": _t("defend A (守 A)", "守 A"),
        "reach_ace": _t("reach A (到 A)", "升到 A"),
        "wrap": _t("wrap, by hands (循环)", "循环, 按局数"),
    },
    "no_declaration": {
        "kitty_card_3": _t("3rd kitty card sets trump", "翻第 3 张底牌定主"),
        "kitty_card_4": _t("4th kitty card sets trump", "翻第 4 张底牌定主"),
        "no_trump": _t("play 无主 (no trump)", "打无主"),
        "redeal": _t("redeal", "重新发牌"),
    },
    "declaring": {
        "shuangsheng": _t("双升", "双升"),
        "shuangkou": _t("双抠", "双抠"),
        "classic": _t("经典 classic", "经典"),
        "tuolaji": _t("拖拉机", "拖拉机"),
        "botzone": _t("Botzone: one single, one pair override", "Botzone: 单张亮主, 对子反一次"),
        "count": _t(
            "by the number of cards, then BJ > LJ > ♠ > ♥ > ♣ > ♦",
            "比张数, 张数一样再比 大王 > 小王 > 黑桃 > 红桃 > 梅花 > 方块",
        ),
        "ladder": _t(
            "ladder: single < pair < small-joker pair < big-joker pair",
            "阶梯: 单张 < 对子 < 小王对 < 大王对",
        ),
    },
    "throw_forced": {
        "unit": _t("the lowest beaten unit", "被管住的最小一组"),
        "single": _t("one card", "只出一张"),
        "smallest": _t("the smallest beaten unit (fewest cards)", "被管住的最小一组 (张数最少)"),
    },
    "throw_penalty_side": {
        "final": _t("the thrower's side at the end of the hand", "甩牌人一局结束时的一方"),
        "thrown": _t("the side known when throwing", "甩牌时已知的一方"),
    },
}


def option_label(name: str, lang: str) -> str:
    """The short label of option ``name`` in ``lang`` (``en`` or ``zh``)."""
    return _LABELS[name]["zh" if lang == "zh" else "en"]


def overrides_text(overrides: Mapping[str, Any], lang: str) -> str:
    """The options a table changed, for people: ``Decks 3, Throw penalty: none``."""
    zh = lang == "zh"
    parts = []
    for name, value in overrides.items():
        if isinstance(value, bool):
            shown = ("是" if value else "否") if zh else ("yes" if value else "no")
        elif name in _CHOICE_LABELS and value in _CHOICE_LABELS[name]:
            shown = _pick(_CHOICE_LABELS[name][value], False, lang)
        elif isinstance(value, list | tuple):
            shown = " ".join(str(v) for v in value) or "—"
        elif value is None:
            shown = "不限" if zh else "no limit"
        else:
            shown = str(value)
        label = option_label(name, lang) if name in _LABELS else name
        parts.append(f"{label}: {shown}")
    return "; ".join(parts)


def option_fields() -> list[str]:
    """Names of every rule option (every field of RuleOptions but ``name``)."""
    return [f.name for f in fields(RuleOptions) if f.name != "name"]


def _pick(text: Text, lang_independent: bool, lang: str) -> Any:
    return dict(text) if lang_independent else text.get(lang, text["en"])


def option_schema(preset: str, lang_independent: bool = True, lang: str = "en") -> dict[str, Any]:
    """The preset's name, description, seed and every option with its value, type,
    choices or range, label and help (``{"en", "zh"}``; with ``lang_independent=False``
    plain strings in ``lang``). Raises OptionError ``UNKNOWN_PRESET``."""
    opts = load_preset(preset)
    description, seed = preset_description(preset), preset_seed(preset)
    values = opts.to_dict()
    out: list[dict[str, Any]] = []
    for name in option_fields():
        kind = _TYPES[name]
        item: dict[str, Any] = {"name": name, "type": kind, "value": values[name]}
        if name in _CHOICES:
            item["choices"] = list(_CHOICES[name])
            item["choice_labels"] = {
                v: _pick(_CHOICE_LABELS[name][v], lang_independent, lang) for v in _CHOICES[name]
            }
        elif kind in ("choice", "levels"):
            item["choices"] = list(LEVELS)
        if name in _RANGES:
            lo, hi = _RANGES[name]
            item["min"] = lo
            if hi is not None:
                item["max"] = hi
        item["label"] = _pick(_LABELS[name], lang_independent, lang)
        item["help"] = _pick(_HELP[name], lang_independent, lang)
        out.append(item)
    fallback = _t(preset, preset)
    return {
        "name": preset,
        "description": description,
        "seed": seed,
        "title": _pick(PRESET_TITLES.get(preset, fallback), lang_independent, lang),
        "about": _pick(
            PRESET_ABOUT.get(preset, _t(description, description)), lang_independent, lang
        ),
        "options": out,
    }
