"""Words for people, in English and Chinese: one catalogue for the terminal client and the
browser (the server can send :data:`CATALOGUE` as JSON).

Pure: no I/O, no state. Two entry points:

* :func:`error_text` words an engine or server error for a player, from its stable
  ``code`` and its structured ``params`` (:attr:`shengji.errors.ShengjiError.params`);
* :func:`t` looks up a UI string (labels, prompts, footer keys, bot and preset names...).

Cards are written with suit symbols (``♠10``); jokers are ``BJ``/``LJ`` in English and
``大王``/``小王`` in Chinese. Counts agree with their nouns ("1 card", "2 cards").

>>> error_text("CARDS_NOT_IN_HAND", {"cards": "S5"}, "not in your hand: S5", "en")
'♠5 is not in your hand'
>>> error_text("MUST_FOLLOW_SUIT", {"suit": "H", "held": 3, "need": 2}, "", "zh")
'你有3张红桃, 出的两张必须都是红桃'
>>> t("rel.2", "zh"), count_cards(1, "en"), cards_label("BJ S10", "zh")
('对家', '1 card', '大王 ♠10')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..rules.phases import DECLARING_PHASES

if TYPE_CHECKING:
    from ..rules.friends import FriendCall

LANGS = ("en", "zh")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
_SUIT_ZH = {"S": "黑桃", "H": "红桃", "C": "梅花", "D": "方块", "trump": "主牌"}

CATALOGUE: dict[str, dict[str, str]] = {
    # -- errors: a generic text per code (error_text adds details from params) ---------------
    "err.BAD_CARD": {"en": "that is not a card", "zh": "这不是一张牌"},
    "err.UNKNOWN_PRESET": {"en": "there is no preset of that name", "zh": "没有这个预设规则"},
    "err.UNKNOWN_OPTION": {"en": "there is no rule option of that name", "zh": "没有这个规则选项"},
    "err.BAD_OPTION_VALUE": {
        "en": "a rule option has a value it cannot take",
        "zh": "规则选项的取值不对",
    },
    "err.BAD_LEVEL": {
        "en": "not a level rank (2 to 10, J, Q, K, A)",
        "zh": "不是级别 (2 到 10, J, Q, K, A)",
    },
    "err.BAD_TRUMP": {"en": "not a trump (♠, ♥, ♣, ♦ or no trump)", "zh": "不是主 (♠♥♣♦或无主)"},
    "err.EMPTY_PLAY": {"en": "choose at least one card", "zh": "至少要选一张牌"},
    "err.WRONG_CARD_COUNT": {
        "en": "play as many cards as were led",
        "zh": "出牌张数要和首家一样",
    },
    "err.CARDS_NOT_IN_HAND": {
        "en": "some of those cards are not in your hand",
        "zh": "有的牌不在你手里",
    },
    "err.MIXED_SUITS": {
        "en": "a lead must be cards of one suit, or all trumps",
        "zh": "出牌必须是同一门花色, 或者都是主牌",
    },
    "err.MUST_FOLLOW_SUIT": {
        "en": "you hold cards of the suit led: play them first",
        "zh": "你有首家出的花色, 必须先跟这门",
    },
    "err.MUST_FOLLOW_FORMAT": {
        "en": "you hold a pair, triple or tractor in the suit led: play it",
        "zh": "你这门有对子、三张或拖拉机, 必须跟出",
    },
    "err.THROW_FAILED": {
        "en": "the throw failed: another hand can beat one of its units",
        "zh": "甩牌失败: 别人管得住其中一手",
    },
    "err.ILLEGAL_DECLARATION": {
        "en": "this declaration is not allowed now",
        "zh": "现在不能这样亮主",
    },
    "err.ILLEGAL_CALL": {
        "en": "that friend call is not allowed",
        "zh": "不能这样叫朋友",
    },
    "err.BAD_CONFORMANCE_CASE": {
        "en": "a conformance case is malformed",
        "zh": "一致性用例格式不对",
    },
    "err.BAD_OPTION": {"en": "the rule options are not valid", "zh": "规则选项无效"},
    "err.ILLEGAL_PLAY": {"en": "this play is not allowed", "zh": "不能这样出牌"},
    "err.ILLEGAL_ACTION": {"en": "that is not possible now", "zh": "现在不能这样做"},
    "err.BAD_ACTION": {
        "en": "that is not an action (a play, a show, a pass, a burial, a call)",
        "zh": "这不是一个动作 (出牌、亮主、不亮、扣底或叫朋友)",
    },
    "err.BAD_SEAT": {"en": "not a seat at this table", "zh": "这张桌上没有这个座位"},
    "err.NOT_YOUR_TURN": {"en": "it is not your turn", "zh": "还没轮到你"},
    "err.MATCH_OVER": {"en": "the match is over", "zh": "比赛已经结束"},
    "err.BAD_DECK": {"en": "a stacked deck is not a full set of cards", "zh": "指定的牌不是整副牌"},
    "err.BAD_RECORD": {"en": "the record is malformed or illegal", "zh": "对局记录有误"},
    "err.BAD_RECORD_VERSION": {
        "en": "this record format version is not supported",
        "zh": "不支持这个记录格式版本",
    },
    "err.TRUNCATED_RECORD": {
        "en": "the record's actions do not lead to its results",
        "zh": "记录的动作和结果对不上",
    },
    "err.SHENGJI_ERROR": {"en": "something went wrong", "zh": "出错了"},
    "err.HIDDEN": {"en": "you cannot see that", "zh": "这个你看不到"},
    "err.BAD_BOT_SPEC": {
        "en": "That bot does not take that setting.",
        "zh": "这个机器人不接受这个设置。",
    },
    "err.BOT_CRASHED": {"en": "the bot program stopped", "zh": "机器人程序停止了"},
    "err.BOT_TIMEOUT": {"en": "the bot program took too long", "zh": "机器人程序超时了"},
    "err.BOT_PROTOCOL": {
        "en": "the bot program broke the bot protocol",
        "zh": "机器人程序违反了机器人协议",
    },
    "err.BOT_ILLEGAL": {
        "en": "the bot program made an illegal move",
        "zh": "机器人程序出了不合规则的牌",
    },
    "err.UNKNOWN_BOT_OPTION": {
        "en": "the bot program has no option of that name",
        "zh": "机器人程序没有这个选项",
    },
    "err.UNKNOWN_BOT": {
        "en": "there is no bot of that name",
        "zh": "没有这种机器人",
    },
    "err.detail.bots_per_seat": {
        "en": "--bots takes one bot for every seat or one per seat after yours "
        "(three at four seats, e.g. strong,normal,easy), not {got}",
        "zh": "--bots 要一个 (所有座位) 或三个 (你之后的座位依次, 如 strong,normal,easy), "
        "不是 {got} 个",
    },
    # server protocol
    "err.BAD_MESSAGE": {
        "en": "the server did not understand that command",
        "zh": "服务器看不懂这条命令",
    },
    "err.MESSAGE_TOO_LARGE": {"en": "that message is too large", "zh": "消息太长"},
    "err.NOT_JOINED": {"en": "join the room first", "zh": "请先加入房间"},
    "err.ALREADY_JOINED": {"en": "you have already joined", "zh": "你已经加入了"},
    "err.BAD_TOKEN": {
        "en": "that seat is no longer yours: join again",
        "zh": "这个座位已不属于你, 请重新加入",
    },
    "err.ROOM_FULL": {
        "en": "every seat is taken: you can watch",
        "zh": "座位已满, 可以观战",
    },
    "err.ROOM_STARTED": {
        "en": "the match has started: you can watch it",
        "zh": "比赛已经开始, 可以观战",
    },
    "err.SEAT_TAKEN": {"en": "that seat is taken", "zh": "这个座位有人了"},
    "err.NOT_HOST": {"en": "only the host can do that", "zh": "只有房主能这样做"},
    "err.NOT_IN_LOBBY": {
        "en": "only possible before the match starts",
        "zh": "只能在比赛开始前这样做",
    },
    "err.NOT_SEATED": {"en": "spectators cannot do that", "zh": "观战者不能这样做"},
    "err.NOT_KICKABLE": {"en": "only another player can be kicked", "zh": "只能请别的玩家离开"},
    "err.SEATS_EMPTY": {
        "en": "every seat needs a player or a bot",
        "zh": "每个座位都要有玩家或机器人",
    },
    "err.NOT_READY": {"en": "every player must be ready", "zh": "所有玩家都要准备好"},
    "err.NOT_PLAYING": {"en": "the match is not being played", "zh": "比赛不在进行中"},
    "err.NOT_HAND_OVER": {
        "en": "only while the score sheet waits for the next hand",
        "zh": "只能在一局结束、等待下一局时这样做",
    },
    "err.STALE_REVISION": {
        "en": "the table changed before your move arrived: look again",
        "zh": "牌桌已经变了, 请再看一下",
    },
    "err.DUPLICATE_REQUEST": {"en": "that command was sent twice", "zh": "这条命令发了两次"},
    "err.NO_ROOM": {"en": "there is no such room", "zh": "没有这个房间"},
    "err.NOT_FINISHED": {
        "en": "records and replays open when the match ends",
        "zh": "比赛结束后才能看记录和回放",
    },
    "err.RATE_LIMITED": {
        "en": "too many commands too fast: wait a moment",
        "zh": "操作太频繁, 请稍等",
    },
    "err.TOO_MANY_SPECTATORS": {
        "en": "this room has as many spectators as it can take",
        "zh": "这个房间的观战人数已满",
    },
    "err.SERVER_FULL": {
        "en": "the server is full right now: try again later",
        "zh": "服务器现在满了, 请稍后再试",
    },
    "err.TOO_MANY_ROOMS": {
        "en": "too many rooms made from your address: wait a while",
        "zh": "你这里开的房间太多了, 请过一会儿再开",
    },
    "err.NAME_TOO_LONG": {"en": "that name is too long", "zh": "名字太长"},
    "err.CHAT_TOO_LONG": {"en": "that chat line is too long", "zh": "聊天内容太长"},
    "err.BAD_NAME": {
        "en": "a name cannot hold control or formatting characters",
        "zh": "名字里不能有控制字符或格式字符",
    },
    "err.TURN_TOO_SHORT": {
        "en": "a turn timer is off (0) or at least 3 seconds",
        "zh": "出牌计时要么不设 (0), 要么至少 3 秒",
    },
    "err.BODY_TOO_LARGE": {"en": "that request is too large", "zh": "请求内容太大"},
    "err.BAD_REQUEST": {
        "en": "the server did not understand that request",
        "zh": "服务器看不懂这个请求",
    },
    "err.NOT_FOUND": {"en": "there is no such page", "zh": "没有这个页面"},
    "err.STORE_UNAVAILABLE": {
        "en": "the server cannot save games right now: try again soon",
        "zh": "服务器暂时无法保存对局, 请稍后再试",
    },
    "err.SLOW_CONSUMER": {
        "en": "the connection was too slow to keep up and was closed",
        "zh": "连接太慢跟不上, 已被断开",
    },
    "err.ROOM_UNAVAILABLE": {
        "en": "this room's saved data is damaged, so it cannot be opened",
        "zh": "这个房间的存档已损坏, 打不开",
    },
    "err.INTERNAL_ERROR": {
        "en": "the server failed on that: try something else",
        "zh": "服务器处理这一步时出错了, 请换个操作",
    },
    "err.ROOM_MOVED": {
        "en": "the room moved to another server: reconnecting",
        "zh": "房间转到了另一台服务器, 正在重新连接",
    },
    "err.BAD_HAND": {
        "en": "that hand has not been played to the end in this match",
        "zh": "这场比赛还没有打完这一局",
    },
    "err.REVIEW_BUSY": {
        "en": "the reviewer is busy with other hands: try again in a moment",
        "zh": "复盘正忙于别的牌局, 请稍后再试",
    },
    "err.TAKE_BACK_OFF": {
        "en": "the host made this table one without take-backs",
        "zh": "房主设定这张桌子不能悔牌",
    },
    "err.TAKE_BACK_TOO_LATE": {
        "en": "too late to take that back: only your own last show or play, before others act",
        "zh": "来不及悔了: 只能收回自己刚亮的主或刚出的牌, 而且别人还没有动",
    },
    "err.HINTS_OFF": {
        "en": "the host made this table one without hints",
        "zh": "房主设定这张桌子不能用提示",
    },
    "err.HINT_BUSY": {
        "en": "the adviser is busy with other hints: try again in a moment",
        "zh": "提示正忙于别的请求, 请稍后再试",
    },
    "err.REPLAY_BUSY": {
        "en": "the replayer is busy with other matches: try again in a moment",
        "zh": "回放正忙于别的比赛, 请稍后再试",
    },
    "err.BAD_HOST_KEY": {"en": "that host key is not this room's", "zh": "房主密钥不对"},
    # terminal client
    "err.BAD_URL": {
        "en": "not a server or room link (http://host:port or http://host:port/room/ID)",
        "zh": "不是服务器或房间链接 (http://主机:端口 或 http://主机:端口/room/ID)",
    },
    "err.TIMEOUT": {"en": "the server did not answer", "zh": "服务器没有响应"},
    "err.UNREACHABLE": {"en": "the server cannot be reached", "zh": "连不上服务器"},
    "err.CONNECTION_LOST": {
        "en": "lost the connection to the server",
        "zh": "和服务器的连接断了",
    },
    "err.RECONNECTING": {
        "en": "the connection dropped: reconnecting, try again in a moment",
        "zh": "连接中断, 正在重连, 请稍后再试",
    },
    "err.SERVER_ERROR": {"en": "the server answered with an error", "zh": "服务器出错了"},
    "err.INTERRUPTED": {"en": "stopped (Ctrl-C)", "zh": "已中断 (Ctrl-C)"},
    "err.MISSING_EXTRA": {
        "en": "this needs an optional part that is not installed",
        "zh": "需要的可选组件没有安装",
    },
    "err.WORKER_LOST": {
        "en": "a simulation worker died again, so the run stopped",
        "zh": "模拟的工作进程又一次意外退出, 运行已停止",
    },
    # -- notices: what the table did by itself ----------------------------------------------
    "notice.TIME_RAN_OUT": {
        "en": "time ran out: the bot {did} for {name}",
        "zh": "{name} 超时, 机器人替其{did}",
    },
    "notice.TIME_RAN_OUT.you": {
        "en": "your time ran out: the bot {did} for you",
        "zh": "你超时了, 机器人替你{did}",
    },
    "notice.TIME_RAN_OUT.pass": {
        "en": "time ran out: {name} did not show",
        "zh": "{name} 超时, 不亮",
    },
    "notice.TIME_RAN_OUT.pass.you": {
        "en": "your time ran out: you did not show",
        "zh": "你超时了, 不亮",
    },
    "notice.did.play": {"en": "played {cards}", "zh": "出了 {cards}"},
    "notice.did.declare": {"en": "declared {cards}", "zh": "亮了 {cards}"},
    "notice.did.pass": {"en": "passed", "zh": "不亮"},
    "notice.did.bury": {"en": "buried {count} cards", "zh": "扣了 {count} 张底牌"},
    "notice.did.continue": {"en": "went on", "zh": "继续"},
    "notice.did.call": {"en": "called {calls} as friends", "zh": "叫了朋友 {calls}"},
    "notice.TOOK_BACK": {
        "en": "{name} took back {did}",
        "zh": "{name} 悔了一步: 收回{did}",
    },
    "notice.TOOK_BACK.you": {"en": "you took back {did}", "zh": "你悔了一步: 收回{did}"},
    "notice.took.play": {"en": "the play of {cards}", "zh": "出的 {cards}"},
    "notice.took.declare": {"en": "the show of {cards}", "zh": "亮的 {cards}"},
    "notice.PLAYED_FOR_YOU": {
        "en": "while you were away, the bot made {count} moves for you",
        "zh": "你离开期间, 机器人替你走了 {count} 步",
    },
    "notice.PLAYED_FOR_YOU.one": {
        "en": "while you were away, the bot made 1 move for you",
        "zh": "你离开期间, 机器人替你走了 1 步",
    },
    # -- error details ------------------------------------------------------------------------
    "err.detail.call.count": {
        "en": "call exactly {need} {friends}: you called {got}",
        "zh": "要叫 {need} 个朋友, 你叫了 {got} 个",
    },
    "err.detail.call.duplicate": {
        "en": "the same card and ordinal is called twice",
        "zh": "同一张牌的同一个次序叫了两次",
    },
    "err.detail.call.not_callable": {
        "en": "{card} cannot be called: jokers and level cards are never friends' cards",
        "zh": "{card} 不能叫: 王和级牌不能当朋友牌",
    },
    "err.detail.call.trump_suit": {
        "en": "{card} cannot be called: at this table cards of the trump suit are not "
        "friends' cards",
        "zh": "{card} 不能叫: 这桌不能叫主花色的牌当朋友牌",
    },
    "err.detail.call.ordinal": {
        "en": "{call}: the ordinal is 1 to {decks} (there are {decks} copies of each card)",
        "zh": "{call}: 次序只能是 1 到 {decks} (每张牌有 {decks} 张)",
    },
    "err.detail.call.syntax": {
        "en": "a friend call is a card and an ordinal, like SA:2 (the 2nd ♠A)",
        "zh": "叫朋友写牌和次序, 例如 SA:2 (第2张♠A)",
    },
    "err.detail.BAD_SEAT": {
        "en": "this table has seats 1 to {seats}",
        "zh": "这张桌只有 1 到 {seats} 号座位",
    },
    "err.detail.BAD_CARD": {
        "en": "“{text}” is not a card: write the suit S/H/C/D and the rank (S10, HJ), or BJ/LJ",
        "zh": "“{text}”不是一张牌: 先写花色 S/H/C/D 再写点数 (S10, HJ), 王写 BJ/LJ",
    },
    "err.detail.not_in_hand.one": {"en": "{cards} is not in your hand", "zh": "你手里没有 {cards}"},
    "err.detail.not_in_hand.many": {
        "en": "{cards} are not in your hand",
        "zh": "你手里没有 {cards}",
    },
    "err.detail.count.follow": {
        "en": "the lead has {need}: play {n}, not {got}",
        "zh": "首家出了{n}张牌, 你也要出{n}张, 不是{got}张",
    },
    "err.detail.count.bury": {
        "en": "bury exactly {need}, not {got}",
        "zh": "要扣{n}张底牌, 不是{got}张",
    },
    "err.detail.suit.one": {
        "en": "you hold {held}: you must play {a_suit}",
        "zh": "你有{suit}, 必须出{suit}",
    },
    "err.detail.suit.two": {
        "en": "you hold {held}: both cards you play must be {suits}",
        "zh": "你有{held_n}张{suit}, 出的两张必须都是{suit}",
    },
    "err.detail.suit.all": {
        "en": "you hold {held}: all {need} cards you play must be {suits}",
        "zh": "你有{held_n}张{suit}, 出的{need}张必须都是{suit}",
    },
    "err.detail.suit.rest": {
        "en": "you hold only {held}: play {them} and {others}",
        "zh": "你只有{held_n}张{suit}: 要全部出上, 再配{other_n}张别的牌",
    },
    "err.detail.format": {
        "en": "you hold {shapes} in {suits} and must play {them}",
        "zh": "你的{suit}里有{shapes}, 必须跟出",
    },
    "err.detail.throw": {
        "en": "{who}throw {attempted} failed: {blocker} can beat {played}, so only {played} "
        "was played{penalty}",
        "zh": "{who}甩牌 {attempted} 失败: {blocker}管得住 {played}, 只出了 {played}{penalty}",
    },
    "err.detail.throw.plus": {
        "en": "; penalty: {n} points to the collectors",
        "zh": "; 罚分: 闲家加{n}分",
    },
    "err.detail.throw.minus": {
        "en": "; penalty: {n} points off the collectors' score",
        "zh": "; 罚分: 闲家减{n}分",
    },
    "err.detail.throw.stake": {
        "en": "; penalty: the thrower's team pays half the stake (the coins each hand is "
        "played for)",
        "zh": "; 罚: 甩牌方赔一半底金 (每局下注的金币)",
    },
    "err.detail.option.range": {
        "en": "option {option} takes {low} to {high}, not {value}",
        "zh": "选项 {option} 可取 {low} 到 {high}, 不能是 {value}",
    },
    "err.detail.option.least": {
        "en": "option {option} takes {low} or more, not {value}",
        "zh": "选项 {option} 至少是 {low}, 不能是 {value}",
    },
    "err.detail.option": {
        "en": "option {option} cannot be {value}",
        "zh": "选项 {option} 不能是 {value}",
    },
    "err.detail.turn": {"en": "it is {who}'s turn, not yours", "zh": "现在轮到{who}, 不是你"},
    "err.detail.turn.nobody": {"en": "nobody is to act now", "zh": "现在谁也不用出牌"},
    "err.detail.phase.declare": {
        "en": "now is the time to declare trump or pass",
        "zh": "现在是亮主的时候: 亮主或不亮",
    },
    "err.detail.phase.bury": {"en": "now is the time to bury the kitty", "zh": "现在该扣底"},
    "err.detail.action.paced": {
        "en": "the cards deal themselves: only a show is possible now, whenever you hold one",
        "zh": "发牌自动进行: 现在只能亮主, 有牌可亮时随时亮",
    },
    "err.detail.action.table_deals": {
        "en": "the table deals the cards, not a player",
        "zh": "牌由牌桌来发, 不是玩家",
    },
    "err.detail.action.no_deal": {
        "en": "no cards are being dealt now",
        "zh": "现在没有在发牌",
    },
    "err.detail.action.deal_count": {
        "en": "{dealt} of {total} cards are out: deal on to more, up to {total}",
        "zh": "已发{dealt}张, 共{total}张: 只能继续往后发, 最多到{total}张",
    },
    "err.detail.phase.play": {"en": "now is the time to play cards", "zh": "现在该出牌"},
    "err.detail.phase.hand_over": {
        "en": "the hand is over: only “next hand” goes on",
        "zh": "本局已结束: 只能开始下一局",
    },
    # declaring refusals (ILLEGAL_DECLARATION params["reason"])
    "decl.empty": {"en": "a declaration needs at least one card", "zh": "亮主至少要一张牌"},
    "decl.not_identical": {
        "en": "show identical cards: one level card, or a pair of the same level card or jokers",
        "zh": "亮主要用相同的牌: 一张级牌, 或同花色的一对级牌, 或一对王",
    },
    "decl.not_level": {
        "en": "{card} is not a level card: only {level}s (or a pair of jokers) can be shown",
        "zh": "{card} 不是级牌: 只能亮{level} (或一对王)",
    },
    "decl.single_joker": {
        "en": "a single joker never declares; a pair of jokers declares no trump",
        "zh": "单王不能亮主, 一对王亮无主",
    },
    "decl.bad_seat": {"en": "not a seat (0 to 3)", "zh": "不是座位 (0 到 3)"},
    "decl.too_many": {
        "en": "{count} identical cards need more decks than this game has",
        "zh": "{count}张相同的牌超过了这局的副数",
    },
    "decl.only_while_dealing": {
        "en": "trump can only be declared while the cards are dealt",
        "zh": "只能在发牌时亮主",
    },
    "decl.jokers_counter_only": {
        "en": "jokers cannot declare: a pair of jokers can only counter-declare",
        "zh": "王不能亮主, 一对王只能反主",
    },
    "decl.late_reinforce": {
        "en": "too late to reinforce: the kitty is already buried",
        "zh": "已经扣底, 不能再上保险",
    },
    "decl.counter_needs_pair": {
        "en": "trump is already declared: a counter-declaration needs an identical pair",
        "zh": "已经有人亮主: 反主要一对相同的牌",
    },
    "decl.own_declaration": {
        "en": "you hold the current declaration and cannot counter it yourself",
        "zh": "现在的主是你亮的, 不能自己反",
    },
    "decl.first_hand_no_counter": {
        "en": "in the first hand there is no counter-declaring once the kitty is taken",
        "zh": "第一局拿底以后不能反主",
    },
    "decl.counter_after_burial": {
        "en": "in later hands counter-declaring comes after the kitty is buried",
        "zh": "以后各局要等扣底以后才能反主",
    },
    "decl.outranked": {
        "en": "a counter-declaration must be an identical pair that outranks the current trump "
        "(BJ > LJ > ♠ > ♥ > ♣ > ♦)",
        "zh": "反主要一对相同的牌, 而且比现在的主大 (大王 > 小王 > 黑桃 > 红桃 > 梅花 > 方块)",
    },
    "decl.needs_pair": {
        "en": "trump is already declared: only a pair can change it",
        "zh": "已经有人亮主: 只有一对才能改主",
    },
    "decl.flipped_jokers": {
        "en": "the trump came from the kitty card: only a pair of jokers may counter now",
        "zh": "主是翻底牌定的: 现在只有一对王能反",
    },
    "decl.once_each": {
        "en": "each player may counter after the burial once, and not after fixing trump",
        "zh": "每人只能反底一次, 自己定过主的不能反底",
    },
    "decl.fix_while_dealing": {
        "en": "trump is fixed while the cards are dealt; after the burial comes the counter",
        "zh": "定主在发牌时, 扣底以后是反底",
    },
    "decl.after_burial": {
        "en": "no declaring once the kitty is buried",
        "zh": "扣底以后不能再亮主",
    },
    "decl.stronger_needed": {
        "en": "only a stronger show is accepted: single < pair < pair of jokers < triple "
        "< three jokers",
        "zh": "只能亮更大的: 单张 < 一对 < 一对王 < 三张 < 三个王",
    },
    "decl.already_nt": {"en": "trump is already no trump", "zh": "已经是无主了"},
    "decl.reinforce_only": {
        "en": "you hold the current declaration: you may only add cards to it (more of the "
        "same card)",
        "zh": "现在的主是你亮的: 只能再加同样的牌加固",
    },
    "decl.stronger_show": {
        "en": "only a stronger show is accepted: {need}",
        "zh": "只能亮更大的: {need}",
    },
    "decl.stronger_show.none": {
        "en": "no show can outrank {show} now",
        "zh": "现在没有比 {show} 更大的亮主",
    },
    "decl.stronger.pair": {"en": "two or more identical cards", "zh": "两张或更多相同的牌"},
    "decl.stronger.more": {"en": "more than {n} identical cards", "zh": "多于 {n} 张相同的牌"},
    "decl.stronger.priority": {
        "en": "{n} identical cards that outrank {show} (BJ > LJ > ♠ > ♥ > ♣ > ♦)",
        "zh": "{n} 张比 {show} 大的牌 (大王 > 小王 > 黑桃 > 红桃 > 梅花 > 方块)",
    },
    "decl.stronger.jokers": {"en": "{n} jokers", "zh": "{n} 张王"},
    "decl.stronger.big_jokers": {"en": "{n} big jokers", "zh": "{n} 张大王"},
    "decl.stronger.or": {"en": " or ", "zh": ", 或"},
    "decl.single_first": {
        "en": "the first declaration is one level card",
        "zh": "第一次亮主只能亮一张级牌",
    },
    "decl.once_only": {
        "en": "trump was already overridden by a pair: it cannot change again",
        "zh": "已经有人用对子反过主, 不能再改",
    },
    "decl.locked": {
        "en": "trump is locked by a pair: only a pair of jokers can change it",
        "zh": "主已经用对子保住了, 只有一对王能改",
    },
    # -- words --------------------------------------------------------------------------------
    "you": {"en": "you", "zh": "你"},
    "your": {"en": "your ", "zh": "你"},
    "rel.0": {"en": "you", "zh": "你"},
    "rel.1": {"en": "right", "zh": "下家"},
    "rel.2": {"en": "partner", "zh": "对家"},
    "rel.3": {"en": "left", "zh": "上家"},
    "rel.opposite": {"en": "opposite", "zh": "对家"},
    "rel.right_n": {"en": "{nth} right", "zh": "下{nth}家"},
    "rel.left_n": {"en": "{nth} left", "zh": "上{nth}家"},
    "seat.n": {"en": "seat {n}", "zh": "{n}号位"},
    "state.head": {
        "en": "{rules} · hand {hand} · {phase} · level {level} · trump {trump} · banker {banker}",
        "zh": "{rules} · 第{hand}副 · {phase} · 打{level} · 主 {trump} · 庄家 {banker}",
    },
    "state.level": {"en": "{who} at {level}", "zh": "{who} 打{level}"},
    "state.points": {
        "en": "collectors' points {points} · levels: {levels}",
        "zh": "抓分方 {points} 分 · 级: {levels}",
    },
    "state.banker": {"en": " (banker)", "zh": " (庄家)"},
    "state.trick": {"en": "trick: {plays}", "zh": "这一轮: {plays}"},
    "state.to_act": {"en": "to act: {seat}", "zh": "轮到 {seat}"},
    "state.team": {"en": "seats {a} and {b}", "zh": "{a}、{b}号位"},
    "state.next_hand": {
        "en": "the hand is over: Continue deals the next",
        "zh": "本局结束: 继续发下一副",
    },
    "seat.owner": {"en": "{who}'s ", "zh": "{who}"},
    "bot.leveled": {"en": "{bot} ({level})", "zh": "{bot}·{level}"},
    "level.easy": {"en": "easy", "zh": "简单"},
    "level.normal": {"en": "normal", "zh": "普通"},
    "level.strong": {"en": "strong", "zh": "强"},
    "seat.empty": {"en": "empty seat", "zh": "空位"},
    "team.ours": {"en": "your team", "zh": "我方"},
    "team.theirs": {"en": "opponents", "zh": "对方"},
    "team.seats": {"en": "seats {a}+{b}", "zh": "{a}/{b}号位"},
    "count.card.one": {"en": "{n} card", "zh": "{n}张牌"},
    "count.card.many": {"en": "{n} cards", "zh": "{n}张牌"},
    "count.point.one": {"en": "{n} point", "zh": "{n}分"},
    "count.point.many": {"en": "{n} points", "zh": "{n}分"},
    "trump.nt": {"en": "no trump", "zh": "无主"},
    "trump.is": {"en": "trump {trump}", "zh": "主 {trump}"},
    "trump.unknown": {"en": "?", "zh": "?"},
    "preset.shuangsheng": {"en": "Shuangsheng (双升)", "zh": "双升"},
    "preset.shuangsheng-super": {"en": "Super Shuangsheng (超级双升)", "zh": "超级双升"},
    "preset.classic": {"en": "Classic, 2 decks (经典升级)", "zh": "经典升级 (2副)"},
    "preset.classic-1deck": {"en": "Classic, 1 deck (经典升级)", "zh": "经典升级 (1副)"},
    "preset.classic-3deck": {"en": "Classic, 3 decks (经典升级)", "zh": "经典升级 (3副)"},
    "preset.shuangkou": {"en": "Shuangkou (双抠)", "zh": "双抠"},
    "preset.tuolaji": {"en": "Tuolaji (拖拉机)", "zh": "拖拉机"},
    "preset.tuolaji-4deck": {"en": "Tuolaji, 4 decks (拖拉机)", "zh": "拖拉机 (4副)"},
    "preset.botzone": {"en": "Botzone Shuangsheng (双升)", "zh": "Botzone 双升"},
    "preset.zhaopengyou": {"en": "Finding friends (找朋友), 4–8", "zh": "找朋友 (4–8 人)"},
    "phase.lobby": {"en": "waiting to start", "zh": "等待开始"},
    "phase.deal": {"en": "dealing", "zh": "发牌"},
    "phase.before_kitty": {"en": "declaring", "zh": "亮主"},
    "phase.bury": {"en": "burying the kitty", "zh": "扣底"},
    "phase.call": {"en": "calling friends", "zh": "叫朋友"},
    "phase.after_burial": {"en": "counter-declaring", "zh": "反主"},
    "phase.play": {"en": "playing", "zh": "出牌"},
    "phase.hand_over": {"en": "hand over", "zh": "本局结束"},
    "phase.match_over": {"en": "match over", "zh": "比赛结束"},
    # -- the table ----------------------------------------------------------------------------
    "status.hand": {"en": "hand {n}", "zh": "第{n}局"},
    "status.level": {"en": "level {level}", "zh": "打{level}"},
    "status.banker": {"en": "banker {who}", "zh": "庄家 {who}"},
    "status.points": {"en": "collectors {points}", "zh": "闲家 {points}分"},
    "status.levels": {"en": "levels: {a} {la} · {b} {lb}", "zh": "级: {a} {la} · {b} {lb}"},
    "status.online": {"en": "online", "zh": "在线"},
    "status.watching": {"en": "watching", "zh": "观战"},
    "status.reconnecting": {
        "en": "connection lost: reconnecting (attempt {n})…",
        "zh": "连接断开: 正在重连 (第{n}次)…",
    },
    "status.paused": {
        "en": "paused until a player comes back",
        "zh": "暂停: 等玩家回来",
    },
    "status.clock": {"en": "{who}: {s}s left", "zh": "{who}: 还剩{s}秒"},
    "status.next_clock": {
        "en": "the next hand starts in {s}s",
        "zh": "{s}秒后开始下一局",
    },
    "table.declared": {"en": "declared: {list}", "zh": "亮主: {list}"},
    "table.no_declaration": {"en": "declared: nobody yet", "zh": "亮主: 还没有人亮"},
    "table.last": {
        "en": "last trick: {plays} → {winner} won{points}",
        "zh": "上一轮: {plays} → {winner}赢{points}",
    },
    "table.points": {"en": " {points}", "zh": " {points}"},
    "table.failed": {"en": " (throw {cards} failed)", "zh": " (甩 {cards} 失败)"},
    "table.kitty": {"en": "kitty: {cards}", "zh": "底牌: {cards}"},
    "table.trick": {"en": "this trick: {plays}", "zh": "本轮: {plays}"},
    "table.cards_left": {"en": "{n} left", "zh": "剩{n}张"},
    "table.hand": {"en": "your hand", "zh": "你的手牌"},
    "table.no_hand": {"en": "you are watching: no hand", "zh": "你在观战, 没有手牌"},
    "table.log": {"en": "what happened", "zh": "经过"},
    "table.chat": {"en": "chat", "zh": "聊天"},
    # prompts (the app: keys)
    "prompt.declare": {
        "en": "your turn: declare or pass (1-9 / p in the dialog; Enter opens it)",
        "zh": "轮到你: 亮主或不亮 (对话框里按 1-9 / p; 回车打开对话框)",
    },
    "prompt.bury": {
        "en": "your turn: bury {n} cards (space selects, Enter buries)",
        "zh": "轮到你扣{n}张底 (空格选牌, 回车扣底)",
    },
    "prompt.play": {
        "en": "your turn: space selects, Enter plays",
        "zh": "轮到你出牌: 空格选牌, 回车出牌",
    },
    "prompt.next": {"en": "hand over: n for the next hand", "zh": "本局结束: 按 n 开始下一局"},
    "prompt.wait": {"en": "waiting for {who}", "zh": "等待{who}"},
    "prompt.dealing": {
        "en": "dealing {n}/{total}: nothing to show yet (a level card {level} or a joker pair)",
        "zh": "发牌 {n}/{total}: 还没有可亮的牌 (级牌{level}或一对王)",
    },
    "prompt.deal_show": {
        "en": "dealing {n}/{total}: you may show {shows} · d: show (the deal does not wait)",
        "zh": "发牌 {n}/{total}: 可以亮 {shows} · d: 亮主 (发牌不等人)",
    },
    "plain.deal_show": {
        "en": "dealing {n}/{total}: you may show {shows} · type show {example} (the deal does "
        "not wait)",
        "zh": "发牌 {n}/{total}: 可以亮 {shows} · 输入 show {example} (发牌不等人)",
    },
    "prompt.wait_next": {
        "en": "waiting for {who} to start the next hand",
        "zh": "等待{who}开始下一局",
    },
    "prompt.reviewing": {"en": "{who} (reviewing the hand)", "zh": "{who} (正在复盘)"},
    "prompt.watching": {"en": "you are watching the game", "zh": "你在观战"},
    # prompts (line mode: words to type)
    "plain.declare": {
        "en": "your turn to declare: {options} · type its number, or pass",
        "zh": "轮到你亮主: {options} · 输入序号, 或 pass 不亮",
    },
    "plain.declare_none": {
        "en": "your turn to declare: nothing you could show · type pass",
        "zh": "轮到你亮主: 没有能亮的牌 · 输入 pass",
    },
    "plain.bury": {
        "en": "your turn: bury {n} cards · type bury and the cards, e.g. bury {example}",
        "zh": "轮到你扣{n}张底 · 输入 bury 和牌, 例如 bury {example}",
    },
    "plain.play": {
        "en": "your turn · type play and the cards, e.g. play {example}",
        "zh": "轮到你出牌 · 输入 play 和牌, 例如 play {example}",
    },
    "plain.next": {
        "en": "hand over · type next for the next hand",
        "zh": "本局结束 · 输入 next 开始下一局",
    },
    "plain.lobby_host": {
        "en": "you are the host · type start when everyone is ready (bots [easy|normal|strong] "
        "[seat]: bots in the empty seats and the bots' seats, or in one seat)",
        "zh": "你是房主 · 大家准备好后输入 start 开始 (bots [easy|normal|strong] [座位号]: "
        "空位和机器人座位换成该难度的机器人, 或只换一个座位)",
    },
    "plain.lobby": {
        "en": "type ready when you are ready; the host starts the match",
        "zh": "准备好了输入 ready; 由房主开始比赛",
    },
    "plain.help": {
        "en": "commands: play CARDS · bury CARDS · show CARDS (or its number; any time "
        "during the deal) · call CARD:N (找朋友, the banker) · pass · next · hint · look · "
        "help · quit (cards like S10 HJ BJ)",
        "zh": "命令: play 牌 · bury 牌 · show 牌 (或序号; 发牌时随时可亮) · call 牌:次序 "
        "(找朋友, 庄家) · pass · next · hint · look · help · quit (牌写作 S10 HJ BJ)",
    },
    "plain.help_online": {
        "en": "online also: say TEXT · ready · unready · start · bots [LEVEL] [SEAT] (the host)",
        "zh": "联网时还有: say 话 · ready · unready · start · bots [难度] [座位号] (房主)",
    },
    "plain.unknown": {
        "en": "unknown command: {word}",
        "zh": "没有这个命令: {word}",
    },
    "plain.you": {"en": "your hand: {cards}", "zh": "你的手牌: {cards}"},
    "plain.trick": {
        "en": "this trick: {plays} · {points} so far (▶ led, ★ winning)",
        "zh": "本轮: {plays} · 已有{points} (▶首家, ★最大)",
    },
    "refused": {"en": "refused: {text}", "zh": "不行: {text}"},
    # the selection
    "sel.legal": {"en": "✓ legal", "zh": "✓ 可以出"},
    "sel.none": {
        "en": "nothing selected: space (or a click) selects the cards to play",
        "zh": "还没选牌: 按空格 (或点牌) 选要出的牌",
    },
    "sel.show": {"en": "✓ you may show these: Enter", "zh": "✓ 可以亮: 按回车"},
    "sel.throw": {
        "en": "throw: may fail (if another hand can beat one of its units)",
        "zh": "甩牌: 可能失败 (别人若管得住其中一手)",
    },
    "sel.count": {"en": "{n}/{need} chosen", "zh": "已选 {n}/{need} 张"},
    # hints
    # -- review marks: why the better play is better (shengji.bots.reasons) -----------------
    "review.why.beats_winner": {
        "en": "{better} beats {winner}, which took the trick and its {taken} for the "
        "opponents; {played} does not",
        "zh": "出{better}能压住{winner}, 出{played}压不住: 对方拿走了这一轮和其中的{taken}",
    },
    "review.why.beats_winner.none": {
        "en": "{better} beats {winner}, which took the trick for the opponents; {played} does not",
        "zh": "出{better}能压住{winner}, 出{played}压不住: 对方拿走了这一轮",
    },
    "review.why.holds_trick": {
        "en": "{better} keeps the trick and its {points} safe; {played} can still be overtaken",
        "zh": "出{better}稳拿这一轮和其中的{points}, 出{played}还可能被压",
    },
    "review.why.holds_trick.none": {
        "en": "{better} keeps the trick safe; {played} can still be overtaken",
        "zh": "出{better}稳拿这一轮, 出{played}还可能被压",
    },
    "review.why.secures_trick": {
        "en": "partner's {partner} may still be overtaken: {better} makes the trick and its "
        "{points} safe; {played} leaves it open",
        "zh": "队友的{partner}还可能被压: 出{better}稳拿这一轮和其中的{points}, 出{played}则不稳",
    },
    "review.why.secures_trick.none": {
        "en": "partner's {partner} may still be overtaken: {better} makes the trick safe; "
        "{played} leaves it open",
        "zh": "队友的{partner}还可能被压: 出{better}稳拿这一轮, 出{played}则不稳",
    },
    "review.why.wins_trick": {
        "en": "{better} wins the trick and its {points}; {played} loses it",
        "zh": "出{better}能拿下这一轮和其中的{points}, 出{played}拿不到",
    },
    "review.why.wins_trick.none": {
        "en": "{better} wins the trick (and the lead); {played} loses it",
        "zh": "出{better}能拿下这一轮 (和出牌权), 出{played}拿不到",
    },
    "review.why.takes_lead": {
        "en": "{better} beats the cards played so far ({points} in the trick); {played} does not",
        "zh": "出{better}能压过已出的牌 (这一轮已有{points}), 出{played}压不过",
    },
    "review.why.takes_lead.none": {
        "en": "{better} beats the cards played so far; {played} does not",
        "zh": "出{better}能压过已出的牌, 出{played}压不过",
    },
    "review.why.overtakes_partner": {
        "en": "{played} overtakes partner's winning {partner}; {better} leaves the trick "
        "to partner",
        "zh": "出{played}压了队友正在赢的{partner}; 出{better}让队友拿这一轮",
    },
    "review.why.overtaken": {
        "en": "{played} was overtaken: the opponents took the trick and its {taken}; "
        "{better} spends less",
        "zh": "出{played}被压了: 对方拿走这一轮和其中的{taken}; 出{better}损失更小",
    },
    "review.why.overtaken.none": {
        "en": "{played} was overtaken and the opponents took the trick; {better} spends less",
        "zh": "出{played}被压了, 对方拿走这一轮; 出{better}损失更小",
    },
    "review.why.gives_points": {
        "en": "{played} gives {points} to the opponents, who took the trick ({taken} in "
        "all); {better} keeps them",
        "zh": "出{played}送给对方{points} (对方这一轮共拿{taken}); 出{better}不送",
    },
    "review.why.gives_points.collector": {
        "en": "{played} puts {points} into a trick the banker's side took, out of our "
        "count ({taken} in all); {better} keeps them",
        "zh": "出{played}把{points}垫给了庄家一方拿下的这一轮, 我方拿不到 (这一轮共{taken}); "
        "出{better}不垫",
    },
    "review.why.feeds_partner": {
        "en": "{better} feeds {points} more to the trick our side took; {played} holds them back",
        "zh": "出{better}能给己方拿下的这一轮多贴{points}, 出{played}没贴",
    },
    "review.why.draws_trumps": {
        "en": "{better} draws the opponents' trumps; {played} leaves them their trumps",
        "zh": "出{better}吊主, 清对方的主; 出{played}让对方留着主",
    },
    "review.why.leads_boss": {
        "en": "{better} is a lead nobody can beat; {played} can be beaten",
        "zh": "出{better}没人管得住, 出{played}会被管上",
    },
    "review.why.leads_into_void": {
        "en": "{played} leads {suit}, where an opponent has shown void: it can be "
        "trumped; {better} is safer",
        "zh": "对方已经没有{suit}了, 出{played}会被毙; 出{better}更稳",
    },
    "review.why.spends_trump": {
        "en": "{played} spends {trumps} more than {better}, which does the same job",
        "zh": "出{played}比出{better}多花{trumps}, 效果却一样",
    },
    "review.why.leads_trump": {
        "en": "{played} spends a trump on the lead; {better} keeps the trumps and leads a "
        "side suit",
        "zh": "出{played}首攻就花掉主牌; 出{better}留着主, 先出副牌",
    },
    "review.why.keeps_boss": {
        "en": "{better} keeps {cards}, which nobody can beat; {played} spends it",
        "zh": "出{better}留着没人管得住的{cards}; 出{played}把它花掉了",
    },
    "review.why.breaks_pair": {
        "en": "{played} breaks up the {kind} {cards}; {better} does not",
        "zh": "出{played}拆了{kind}{cards}; 出{better}不拆",
    },
    "review.why.spends_pair": {
        "en": "{played} spends the {kind} {cards} where {better} does the same job and keeps it",
        "zh": "出{played}用掉了{kind}{cards}; 出{better}效果一样, 还留着它",
    },
    "review.why.spends_high": {
        "en": "{played} spends a higher card than needed; the lower {better} does the same",
        "zh": "出{played}用了不必要的大牌, 出小一点的{better}效果一样",
    },
    "review.why.leads_low": {
        "en": "{better} leads low and keeps {cards} for later; {played} spends it",
        "zh": "出{better}先出小的, 留着{cards}; 出{played}把它花掉了",
    },
    "review.why.wins_nothing": {
        "en": "{played} wins a trick with no points; {better} keeps {cards}",
        "zh": "出{played}赢了一轮没有分的牌; 出{better}留着{cards}",
    },
    "review.why.lost_trick": {
        "en": "after {played} the opponents took the trick and its {taken}",
        "zh": "出{played}后对方拿走了这一轮和其中的{taken}",
    },
    "review.why.search": {
        "en": "the search found {better} worth {gain} levels more over {deals} sampled deals",
        "zh": "搜索发现出{better}在{deals}次抽样中平均多得{gain}级",
    },
    "review.kind.pair": {"en": "pair", "zh": "对子"},
    "review.kind.triple": {"en": "triple", "zh": "三张"},
    "review.kind.quad": {"en": "four of a kind", "zh": "四张"},
    "review.kind.tractor": {"en": "tractor", "zh": "拖拉机"},
    "hint.text": {"en": "hint: {action} · {why}", "zh": "提示: {action} · {why}"},
    "hint.gain": {
        "en": " (levels a hand gained on average; ± how far that average may be off)",
        "zh": " (平均每局多升的级数; ± 后是这个平均值的误差)",
    },
    "hint.local_only": {
        "en": "this server gives no hints",
        "zh": "这个服务器不提供提示",
    },
    "hint.refused": {"en": "no hint: {text}", "zh": "没有提示: {text}"},
    "hint.not_now": {"en": "no hint: it is not your turn", "zh": "没有提示: 还没轮到你"},
    "hint.busy": {
        "en": "the adviser is still busy with the last hint: try again in a moment",
        "zh": "提示还在计算上一次的请求, 请稍后再试",
    },
    "hint.thinking": {"en": "hint: thinking…", "zh": "提示: 思考中…"},
    "action.declare": {"en": "declare {cards}", "zh": "亮 {cards}"},
    "action.show": {"en": "show {cards}", "zh": "亮 {cards}"},
    "action.pass": {"en": "pass", "zh": "不亮"},
    "action.bury": {"en": "bury {cards}", "zh": "扣 {cards}"},
    "action.play": {"en": "play {cards}", "zh": "出 {cards}"},
    "action.continue": {"en": "next hand", "zh": "下一局"},
    "action.call": {"en": "call {calls}", "zh": "叫 {calls}"},
    # what happened
    "note.hand": {
        "en": "— hand {n}: level {level}{banker} —",
        "zh": "— 第{n}局: 打{level}{banker} —",
    },
    "note.hand_banker": {"en": ", banker {who}", "zh": ", 庄家 {who}"},
    "note.declare": {
        "en": "{who} declares {cards}: {trump}",
        "zh": "{who}亮主 {cards}: {trump}",
    },
    "note.counter": {
        "en": "{who} counter-declares {cards}: {trump}",
        "zh": "{who}反主 {cards}: {trump}",
    },
    "note.reinforce": {"en": "{who} reinforces with {cards}", "zh": "{who}上保险 {cards}"},
    "note.declare.you": {
        "en": "you declare {cards}: {trump}",
        "zh": "你亮主 {cards}: {trump}",
    },
    "note.counter.you": {
        "en": "you counter-declare {cards}: {trump}",
        "zh": "你反主 {cards}: {trump}",
    },
    "note.reinforce.you": {"en": "you reinforce with {cards}", "zh": "你上保险 {cards}"},
    "note.chat.you": {"en": "you say: {text}", "zh": "你说: {text}"},
    "note.buried": {"en": "{who} buried the kitty", "zh": "{who}扣好了底"},
    "note.play_begins": {
        "en": "play begins: {trump}; the banker, {who}, leads",
        "zh": "开始出牌: {trump}, 庄家{who}先出",
    },
    "note.play_begins.you": {
        "en": "play begins: {trump}; you are the banker and lead",
        "zh": "开始出牌: {trump}, 你是庄家, 你先出",
    },
    "keyname.space": {"en": "space", "zh": "空格"},
    "note.play": {"en": "{who}: {cards}", "zh": "{who}: {cards}"},
    "note.trick": {"en": "trick {n} → {who} won{points}", "zh": "第{n}轮 → {who}赢{points}"},
    "note.kitty": {"en": "the kitty was {cards}", "zh": "底牌是 {cards}"},
    "note.reconnected": {"en": "reconnected", "zh": "已重新连上"},
    "note.chat": {"en": "{who} says: {text}", "zh": "{who}说: {text}"},
    # match results
    "result.ours": {"en": "your team wins!", "zh": "我方获胜!"},
    "result.theirs": {"en": "the opponents win", "zh": "对方获胜"},
    "result.team": {"en": "seats {a}+{b} win", "zh": "{a}/{b}号位获胜"},
    "result.draw": {"en": "a draw: both teams level", "zh": "平局"},
    "result.you": {"en": "you win the match!", "zh": "你赢得比赛!"},
    "result.player": {"en": "{who} wins the match", "zh": "{who}赢得比赛"},
    # 找朋友 (finding friends)
    "side.banker": {"en": "banker", "zh": "庄家"},
    "side.friend": {"en": "friend", "zh": "朋友"},
    "side.collector": {"en": "collector", "zh": "闲家"},
    "calls.coming": {"en": "friends: the banker is calling", "zh": "找朋友: 庄家正在叫"},
    "calls.later": {"en": "friends: called after the burial", "zh": "找朋友: 扣底后叫"},
    "calls.open": {"en": "not yet", "zh": "还没出"},
    "calls.line": {"en": "friends: {list}", "zh": "找朋友: {list}"},
    "levels.players": {"en": "levels: {list}", "zh": "级: {list}"},
    "levels.all": {"en": "all at {level}", "zh": "都打{level}"},
    "levels.others": {"en": "the others {level}", "zh": "其余 {level}"},
    "prompt.call": {
        "en": "your turn: call your friends (Enter opens the call, ?: hint)",
        "zh": "轮到你叫朋友 (回车叫朋友, ?: 提示)",
    },
    "plain.call": {
        "en": "your turn: call friends · type call and card:copy, e.g. call {example}"
        " (SA:2 = the 2nd ♠A played)",
        "zh": "轮到你叫朋友 · 输入 call 和 牌:第几张, 例如 call {example} (SA:2 = 第2张♠A)",
    },
    "note.calls": {
        "en": "{who} calls {calls}: whoever plays it becomes the banker's friend",
        "zh": "{who}叫朋友: {calls}。谁出了这张牌, 谁就是庄家的朋友",
    },
    "note.calls.you": {
        "en": "you call {calls}: whoever plays it becomes your friend",
        "zh": "你叫朋友: {calls}。谁出了这张牌, 谁就是你的朋友",
    },
    "note.friend": {
        "en": "— friend found! {who} played {call} and joins {banker}'s side —",
        "zh": "— 朋友出来了! {who}出了{call}, 和{banker}一伙 —",
    },
    "note.friend.you": {
        "en": "— friend found! {who} played {call} and joins your side —",
        "zh": "— 朋友出来了! {who}出了{call}, 和你一伙 —",
    },
    "note.no_friend": {
        "en": "{who} played {call}: no new friend (already on the banker's side)",
        "zh": "{who}出了{call}: 没有新朋友 (已经在庄家一方)",
    },
    "dlg.call": {"en": "Call your friends (找朋友)", "zh": "叫朋友 (找朋友)"},
    "dlg.call_intro": {
        "en": "Whoever plays the copy you name (every copy counts from now on, yours too)"
        " joins your side when that trick ends. Type {n} call(s) as card:copy, e.g. SA:2"
        " for the 2nd ♠A.",
        "zh": "从现在起谁出了你叫的那一张 (每张都算, 包括你自己的), 这一轮结束时就成为你的朋友。"
        "输入 {n} 个 牌:第几张, 例如 SA:2 是第2张♠A。",
    },
    "dlg.call_keys": {
        "en": "Enter: call · Esc: close · not callable: {cards}",
        "zh": "回车: 叫 · Esc: 关闭 · 不能叫: {cards}",
    },
    "dlg.call_hand": {"en": "your hand: {cards}", "zh": "你的手牌: {cards}"},
    "dlg.call_reads": {"en": "reads: {calls}", "zh": "即: {calls}"},
    # the score sheet
    "sheet.title": {"en": "Score sheet", "zh": "记分表"},
    "sheet.over": {"en": "Match over: {result}", "zh": "比赛结束: {result}"},
    "sheet.head": {"en": " #  banker  level  points", "zh": " #  庄家  级  闲家得分"},
    "sheet.next": {
        "en": "n: next hand · ↑↓ scroll · q: quit",
        "zh": "n: 下一局 · ↑↓ 翻看 · q: 退出",
    },
    "sheet.end": {"en": "↑↓ scroll · q: quit", "zh": "↑↓ 翻看 · q: 退出"},
    # dialogs
    "dlg.declare": {"en": "Declare trump?", "zh": "亮主 / 反主?"},
    "dlg.declare_keys": {
        "en": "1-9: declare · p: pass · ?: hint · q: quit",
        "zh": "1-9: 亮主 · p: 不亮 · ?: 提示 · q: 退出",
    },
    "dlg.bury": {"en": "Bury {n} cards (扣底)", "zh": "扣底: 选 {n} 张"},
    "dlg.bury_legend": {
        "en": "underlined: trumps · green: from the kitty · ←→ space Enter · ?: hint",
        "zh": "下划线: 主牌 · 绿色: 底牌 · ←→ 空格 回车 · ?: 提示",
    },
    # lobby
    "lobby.rules": {"en": "rules changed by the host: {rules}", "zh": "房主改的规则: {rules}"},
    "lobby.no_changes": {"en": "the preset's rules, unchanged", "zh": "规则未改动"},
    "lobby.timer": {"en": "turn timer: {s}s a move", "zh": "出牌限时: 每步 {s} 秒"},
    "lobby.no_timer": {"en": "no turn timer", "zh": "出牌不限时"},
    "lobby.no_hints": {"en": "no hints at this table", "zh": "这张桌子不能用提示"},
    "lobby.pace": {
        "en": "the deal: a card every {s}s (it never waits)",
        "zh": "发牌: 每 {s} 秒一张 (不等人)",
    },
    "lobby.declare": {"en": "{s}s to show after the deal", "zh": "发完牌后亮主限时 {s} 秒"},
    "lobby.title": {"en": "Room {id} · {preset}", "zh": "房间 {id} · {preset}"},
    "lobby.link": {"en": "invite link: {url}", "zh": "邀请链接: {url}"},
    "lobby.ready": {"en": "ready", "zh": "已准备"},
    "lobby.not_ready": {"en": "not ready", "zh": "未准备"},
    "lobby.host": {"en": "host", "zh": "房主"},
    "lobby.offline": {"en": "offline", "zh": "离线"},
    "lobby.away": {"en": "away (a bot plays)", "zh": "离开 (机器人代打)"},
    "lobby.empty": {"en": "empty: waiting for a player", "zh": "空位: 等人加入"},
    "lobby.bots_now": {
        "en": "bots: {level} (b again: next level)",
        "zh": "机器人: {level} (再按 b 换难度)",
    },
    "lobby.spectators": {"en": "{n} watching", "zh": "{n}人观战"},
    "lobby.keys_host": {
        "en": "r: ready · s: start · b: bots in the empty seats (again: next level) · q: quit",
        "zh": "r: 准备 · s: 开始 · b: 空位加机器人 (再按: 换难度) · q: 退出",
    },
    "lobby.keys": {
        "en": "r: ready / not ready · the host starts the match · q: quit",
        "zh": "r: 准备 / 取消 · 由房主开始 · q: 退出",
    },
    "lobby.can_start": {
        "en": "everyone is ready: the host can start",
        "zh": "都准备好了: 房主可以开始",
    },
    "lobby.waiting": {
        "en": "waiting for {what}",
        "zh": "等待: {what}",
    },
    "lobby.need_seats": {"en": "empty seats", "zh": "空位有人"},
    "lobby.need_ready": {"en": "players to be ready", "zh": "玩家准备"},
    # footer keys
    "key.move": {"en": "move", "zh": "移动"},
    "key.select": {"en": "select", "zh": "选牌"},
    "key.play": {"en": "play", "zh": "出牌"},
    "key.bury": {"en": "bury", "zh": "扣底"},
    "key.call": {"en": "call friends…", "zh": "叫朋友…"},
    "key.declare": {"en": "declare…", "zh": "亮主…"},
    "key.next": {"en": "next hand", "zh": "下一局"},
    "key.hint": {"en": "hint", "zh": "提示"},
    "key.quit": {"en": "quit", "zh": "退出"},
    "key.pass": {"en": "pass", "zh": "不亮"},
    "key.show": {"en": "show (亮主)", "zh": "亮主"},
    "key.ready": {"en": "ready", "zh": "准备"},
    "key.start": {"en": "start", "zh": "开始"},
    "key.bots": {"en": "bots", "zh": "加机器人"},
    "key.sheet": {"en": "score sheet", "zh": "记分表"},
    "key.scroll": {"en": "scroll", "zh": "翻看"},
    # the command line
    "cli.created": {
        "en": "room created: {url} (the invite link: send it to friends, or open it in a browser)",
        "zh": "房间已建好: {url} (邀请链接: 发给朋友, 或在浏览器里打开)",
    },
    "cli.spectate_link": {
        "en": "--spectate watches a room: give its link, --connect http://HOST:PORT/room/ID",
        "zh": "--spectate 是观战: 请给出房间链接, --connect http://主机:端口/room/ID",
    },
    "cli.bad_seat": {
        "en": "--seat {seat}: this table has seats 0 to {last}",
        "zh": "--seat {seat}: 这张桌的座位是 0 到 {last}",
    },
    "cli.again_watch": {
        "en": "run the same command again to watch again",
        "zh": "再运行同一命令即可继续观战",
    },
    "cli.resume": {"en": "taking back your seat in {url}", "zh": "回到你在 {url} 的座位"},
    "cli.error": {"en": "error: {text}", "zh": "错误: {text}"},
    "cli.again": {
        "en": "your seat is kept: run the same command again to go back",
        "zh": "座位已保留: 再运行同一命令即可回去",
    },
    "cli.unreachable": {
        "en": "cannot reach the server at {where} ({why})",
        "zh": "连不上 {where} 的服务器 ({why})",
    },
    "cli.bad_port": {
        "en": "{url}: the port must be 1 to 65535",
        "zh": "{url}: 端口必须是 1 到 65535",
    },
    "cli.missing_extra": {
        "en": "this command needs the '{extra}' extra ({missing} not installed): "
        "pip install 'shengji[{extra}]'",
        "zh": "这个命令需要附加组件 '{extra}' (缺少 {missing}): pip install 'shengji[{extra}]'",
    },
    "extras.missing": {
        "en": "{part} needs the '{extra}' extra ({missing} missing): "
        "pip install 'shengji[{extra}]'",
        "zh": "{part} 需要附加组件 '{extra}' (缺少 {missing}): pip install 'shengji[{extra}]'",
    },
    "cli.lost": {
        "en": "lost the connection to {where} and could not get it back",
        "zh": "和 {where} 的连接断了, 重连没有成功",
    },
    "cli.resume_made": {
        "en": "back to the room this command made: {url} (--new-room makes another)",
        "zh": "回到这条命令开的房间: {url} (要另开一个房间加 --new-room)",
    },
    "cli.seed": {
        "en": "seed {seed}: shengji play {args} deals the same hands",
        "zh": "种子 {seed}: shengji play {args} 会发同样的牌",
    },
    "cli.record": {
        "en": "record saved: {path} (shengji replay {path} --seat {seat})",
        "zh": "对局记录已保存: {path} (shengji replay {path} --seat {seat})",
    },
    # why a connection failed (connect errors' params["reason"])
    "os.refused": {"en": "connection refused", "zh": "连接被拒绝"},
    "os.unknown_host": {"en": "unknown host", "zh": "找不到这个主机"},
    "os.closed": {"en": "the server closed the connection", "zh": "服务器关闭了连接"},
    "os.reset": {"en": "the connection was reset", "zh": "连接被重置"},
    "os.unreachable": {"en": "the network cannot reach it", "zh": "网络不通"},
    # the trick at a glance
    "table.trick_legend": {
        "en": "» to act · ▶ led · ★ winning · this trick: {points}",
        "zh": "» 该谁 · ▶ 首家 · ★ 目前最大 · 本轮 {points}",
    },
    # declaring during the deal
    "dlg.show": {"en": "Show (亮主) now?", "zh": "现在亮主?"},
    "dlg.show_keys": {
        "en": "1-9: show · Esc: not now (the deal goes on)",
        "zh": "1-9: 亮 · Esc: 先不亮 (发牌继续)",
    },
    # no colour: the kitty's cards are marked +
    "dlg.bury_legend_nc": {
        "en": "underlined: trumps · +: from the kitty · ←→ space Enter · ?: hint",
        "zh": "下划线: 主牌 · +: 底牌 · ←→ 空格 回车 · ?: 提示",
    },
    # quitting a local game
    "quit.title": {"en": "Quit this game?", "zh": "退出这局?"},
    "quit.body": {
        "en": "A game against bots cannot be resumed. The record is saved when you quit, "
        "and shengji play {args} deals the same hands again.",
        "zh": "人机对局退出后不能接着打。退出时会保存对局记录, "
        "shengji play {args} 可以再发同样的牌。",
    },
    "quit.keys": {"en": "y: quit · n / Esc: keep playing", "zh": "y: 退出 · n / Esc: 继续打"},
    # help
    "key.help": {"en": "help", "zh": "帮助"},
    "key.lang": {"en": "中文", "zh": "English"},
    "help.title": {"en": "Keys", "zh": "按键"},
    "help.close": {"en": "h, Esc or Enter closes this help", "zh": "按 h、Esc 或回车关闭帮助"},
    "help.keys": {
        "en": "← →          move along your hand (or click a card)\n"
        "space        select / unselect (or click a card) · Esc: clear all\n"
        "Enter        play the selection; opens a dialog waiting for you\n"
        "2-9 0 J K A  jump to that rank (0: 10; Shift+Q: a queen)\n"
        "S C D        jump to a suit (Shift+H; dealing: Shift+D); W: joker\n"
        "?            hint: the strongest bot's play and why, selected\n"
        "n            next hand · v: the score sheet (↑ ↓ PgUp PgDn scroll)\n"
        "r s b        lobby: ready, start, bots (the host)\n"
        "l            中文 / English\n"
        "h F1         this help · q: quit · Ctrl-C: quit at once\n"
        "the deal     never waits · d: show (亮主) · Enter: the selection\n"
        "declaring    1-9: declare · p: pass (after the deal)\n"
        "the table    » to act · ▶ led the trick · ★ winning it so far",
        "zh": "← →          在手牌里移动 (也可以点牌)\n"
        "空格         选中 / 取消这张牌 (点一下也行); Esc 全部取消\n"
        "回车         出选中的牌; 打开等你处理的对话框\n"
        "2-9 0 J K A  跳到这个点数 (0: 10; Shift+Q: Q)\n"
        "S C D        跳到这个花色 (Shift+H: 红桃; 发牌时 Shift+D); W: 王\n"
        "?            提示: 最强的机器人会怎么出, 为什么 (并选好)\n"
        "n            下一局 · v: 记分表 (↑ ↓ PgUp PgDn 翻看)\n"
        "r s b        房间里: 准备, 开始, 加机器人 (房主)\n"
        "l            中文 / English\n"
        "h F1         本帮助 · q: 退出 · Ctrl-C: 立即退出\n"
        "发牌         不等人 · d: 亮主 · 回车: 亮选中的牌\n"
        "亮主/反主    1-9: 亮 · p: 不亮 (发完牌后)\n"
        "牌桌         » 该谁 · ▶ 首家 · ★ 目前最大",
    },
}


def t(key: str, lang: str, **params: Any) -> str:
    """The UI string ``key`` in ``lang`` (``en`` or ``zh``; English where Chinese is
    missing), with ``params`` filled in; an unknown key is returned as it is."""
    entry = CATALOGUE.get(key)
    if entry is None:
        return key
    text = entry.get(lang) or entry["en"]
    return text.format(**params) if params else text


def notice_text(code: str, params: Mapping[str, Any], lang: str, you: bool = False) -> str:
    """A ``notice`` (what the table did by itself) for people in ``lang`` (``you``: told
    to the person it is about)."""
    if code == "TIME_RAN_OUT" and params.get("action") == "pass":  # silence: no bot's choice
        if you:
            return t("notice.TIME_RAN_OUT.pass.you", lang)
        return t("notice.TIME_RAN_OUT.pass", lang, name=params["name"])
    if code == "TIME_RAN_OUT":
        did = t(
            f"notice.did.{params['action']}",
            lang,
            cards=cards_label(params.get("cards", ""), lang),
            count=params.get("count", 0),
            calls=calls_text(params.get("calls", ""), lang),
        )
        if you:
            return t("notice.TIME_RAN_OUT.you", lang, did=did)
        return t("notice.TIME_RAN_OUT", lang, name=params["name"], did=did)
    if code == "TOOK_BACK":
        did = t(f"notice.took.{params['action']}", lang, cards=cards_label(params["cards"], lang))
        if you:
            return t("notice.TOOK_BACK.you", lang, did=did)
        return t("notice.TOOK_BACK", lang, name=params["name"], did=did)
    if code == "PLAYED_FOR_YOU":
        if params["count"] == 1:
            return t("notice.PLAYED_FOR_YOU.one", lang)
        return t("notice.PLAYED_FOR_YOU", lang, count=params["count"])
    return code


def notice_texts(code: str, params: Mapping[str, Any], you: bool = False) -> dict[str, str]:
    """A notice in both languages."""
    return {lang: notice_text(code, params, lang, you) for lang in LANGS}


def _lang(lang: str) -> str:
    return lang if lang in LANGS else "en"


def card_label(card: str, lang: str) -> str:
    """One card for people: ``♠10``; jokers ``BJ``/``LJ`` (``大王``/``小王`` in Chinese)."""
    c = card.strip()
    up = c.upper()
    if up in ("BJ", "LJ"):
        return {"BJ": "大王", "LJ": "小王"}[up] if lang == "zh" else up
    if up[:1] in SUIT_SYMBOLS:
        return SUIT_SYMBOLS[up[0]] + up[1:]
    return c


def ordinal_text(n: int, lang: str) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` (``第1张``).

    >>> ordinal_text(2, "en"), ordinal_text(2, "zh")
    ('2nd', '第2张')
    """
    if lang == "zh":
        return f"第{n}张"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n, 'th') }"


def call_label(call: FriendCall, lang: str) -> str:
    """A friend call for people: ``the 2nd ♠A`` / ``第2张♠A``.

    >>> from shengji.rules.friends import parse_call
    >>> call_label(parse_call("SA:2"), "en"), call_label(parse_call("SA:2"), "zh")
    ('the 2nd ♠A', '第2张♠A')
    """
    card = card_label(call.card.text, lang)
    if lang == "zh":
        return f"{ordinal_text(call.ordinal, lang)}{card}"
    return f"the {ordinal_text(call.ordinal, lang)} {card}"


CALL_REASONS = ("count", "duplicate", "not_callable", "ordinal", "syntax", "trump_suit")


def call_text(call: str, lang: str) -> str:
    """One friend call (``SA:2``) for people: ``the 2nd ♠A`` / ``第2张♠A`` (as it is, when
    it is not a call's notation)."""
    from ..rules.friends import parse_call

    try:
        return call_label(parse_call(call), lang)
    except Exception:  # a malformed call is shown as it was written
        return call


def calls_text(calls: str | Iterable[str], lang: str) -> str:
    """Several calls (``"SA:2 HK:1"``) for people, joined with ``, `` (``、``)."""
    items = calls.split() if isinstance(calls, str) else list(calls)
    return ("、" if lang == "zh" else ", ").join(call_text(c, lang) for c in items)


def cards_label(cards: str | Iterable[str], lang: str) -> str:
    """Cards for people, space-separated: ``♠10 ♥J BJ``."""
    items = cards.split() if isinstance(cards, str) else list(cards)
    return " ".join(card_label(c, lang) for c in items)


#: Reason params that are cards in notation (worded with :func:`cards_label`).
_CARD_PARAMS = ("played", "better", "partner", "cards", "winner")


def reason_text(code: str, params: Mapping[str, Any], lang: str) -> str:
    """Why a review's better play is better (:mod:`shengji.bots.reasons`), from its stable
    ``code`` and its ``params``: cards with suit symbols, points and trumps counted, a
    ``.none`` wording where the trick holds no points.

    >>> reason_text("wins_trick", {"played": "S3", "better": "SA", "points": 15}, "en")
    '♠A wins the trick and its 15 points; ♠3 loses it'
    >>> reason_text("breaks_pair", {"played": "HK", "better": "H4", "cards": "HK HK",
    ...     "kind": "pair"}, "zh")
    '出♥K拆了对子♥K ♥K; 出♥4不拆'
    """
    lang = _lang(lang)
    p: dict[str, Any] = dict(params)
    for name in _CARD_PARAMS:
        if name in p:
            p[name] = cards_label(str(p[name]), lang)
    for name in ("points", "taken"):
        if name in p:
            p[name] = count_points(int(p[name]), lang)
    if "trumps" in p:
        n = int(p["trumps"])
        p["trumps"] = f"{n}张主牌" if lang == "zh" else f"{n} trump{'s' if n != 1 else ''}"
    if "suit" in p:
        p["suit"] = SUIT_SYMBOLS.get(str(p["suit"]), str(p["suit"]))
    if "kind" in p:
        p["kind"] = t(f"review.kind.{p['kind']}", lang)
    if "gain" in p:
        p["gain"] = f"{float(p['gain']):+.2f}"
    key = f"review.why.{code}"
    if not params.get("points", params.get("taken", 1)) and f"{key}.none" in CATALOGUE:
        key += ".none"
    if params.get("collector") and f"{key}.collector" in CATALOGUE:
        key += ".collector"
    if key not in CATALOGUE:
        return code
    try:
        return t(key, lang, **p)
    except (KeyError, IndexError):  # params that do not fit the words: the code as it is
        return code


def count_cards(n: int, lang: str) -> str:
    """``1 card``, ``2 cards`` (``2张牌``)."""
    return t("count.card.one" if n == 1 else "count.card.many", lang, n=n)


def count_points(n: int, lang: str) -> str:
    """``1 point``, ``10 points`` (``10分``)."""
    return t("count.point.one" if abs(n) == 1 else "count.point.many", lang, n=n)


def trump_label(trump: str | None, lang: str) -> str:
    """The trump of a hand: a suit symbol, ``no trump`` (``无主``) or ``?``."""
    if trump is None:
        return t("trump.unknown", lang)
    if trump == "NT":
        return t("trump.nt", lang)
    return SUIT_SYMBOLS.get(trump, trump)


def trump_phrase(trump: str | None, lang: str) -> str:
    """The trump in a sentence: ``trump ♠`` (``主 ♠``), or ``no trump`` (``无主``)."""
    if trump == "NT":
        return t("trump.nt", lang)
    return t("trump.is", lang, trump=trump_label(trump, lang))


def suit_name(suit: str, lang: str, n: int = 2) -> str:
    """An effective suit (``S``..``D`` or ``trump``) as a noun: ``♠ cards``/``1 ♠ card``
    style in English (``trumps``), the word in Chinese (``黑桃``, ``主牌``)."""
    if lang == "zh":
        return _SUIT_ZH.get(suit, suit)
    if suit == "trump":
        return "trump" if n == 1 else "trumps"
    sym = SUIT_SYMBOLS.get(suit, suit)
    return f"{sym} card" if n == 1 else f"{sym} cards"


def _suit_short(suit: str, lang: str) -> str:
    if lang == "zh":
        return _SUIT_ZH.get(suit, suit)
    return "trumps" if suit == "trump" else SUIT_SYMBOLS.get(suit, suit)


def _held(suit: str, n: int) -> str:
    return f"{n} {suit_name(suit, 'en', n)}" if n != 1 else f"1 {suit_name(suit, 'en', 1)}"


def _a_suit(suit: str) -> str:
    return "a trump" if suit == "trump" else f"a {SUIT_SYMBOLS.get(suit, suit)}"


def _shape_zh(links: int, width: int) -> str:
    if links == 1:
        return {1: "单张", 2: "对子", 3: "三张", 4: "四张"}.get(width, "牌型")
    kind = {2: "对", 3: "三张", 4: "四张"}.get(width, "")
    return f"{links}连{kind}拖拉机"


def _shape_en(links: int, width: int, n: int) -> str:
    if links == 1:
        name = {1: "single", 2: "pair", 3: "triple", 4: "quad"}.get(width, "unit")
    else:
        name = f"{links}-link " + {2: "tractor", 3: "Titanic", 4: "quad tractor"}.get(width, "unit")
    return f"a {name}" if n == 1 else f"{n} {name}s"


def _shapes(required: Any, lang: str) -> tuple[str, int]:
    parts = []
    total = 0
    for item in required or []:
        links, width, n = int(item["links"]), int(item["width"]), int(item.get("count", 1))
        total += n
        if lang == "zh":
            parts.append(f"{n}个{_shape_zh(links, width)}" if n > 1 else _shape_zh(links, width))
        else:
            parts.append(_shape_en(links, width, n))
    joiner = "和" if lang == "zh" else " and "
    return joiner.join(parts), total


def _detail(code: str, p: Mapping[str, Any], lang: str) -> str | None:
    """The detailed text from params, or None when they are not enough."""
    zh = lang == "zh"
    if code == "BAD_OPTION_VALUE" and "option" in p:
        if p.get("high") is not None:
            return t("err.detail.option.range", lang, **p)
        if p.get("low") is not None:
            return t("err.detail.option.least", lang, **p)
        return t("err.detail.option", lang, **p)
    if code == "BAD_BOT_SPEC" and "seats" in p:
        return t("err.detail.bots_per_seat", lang, got=p["seats"])
    if code == "ILLEGAL_CALL" and p.get("reason") in CALL_REASONS:
        why = str(p["reason"])
        words = dict(p)
        words["friends"] = "friend" if p.get("need") == 1 else "friends"
        if "card" in p:
            words["card"] = card_label(str(p["card"]), lang)
        if "call" in p:
            words["call"] = call_text(str(p["call"]), lang)
        return t(f"err.detail.call.{why}", lang, **words)
    if code == "BAD_SEAT" and "seats" in p:
        return t("err.detail.BAD_SEAT", lang, seats=p["seats"])
    if code == "BAD_CARD" and "text" in p:
        return t("err.detail.BAD_CARD", lang, text=p["text"])
    if code == "CARDS_NOT_IN_HAND" and p.get("cards"):
        items = str(p["cards"]).split()
        key = "err.detail.not_in_hand.one" if len(items) == 1 else "err.detail.not_in_hand.many"
        return t(key, lang, cards=cards_label(items, lang))
    if code == "WRONG_CARD_COUNT" and "need" in p and "got" in p:
        need, got = int(p["need"]), int(p["got"])
        key = "err.detail.count.bury" if p.get("kind") == "bury" else "err.detail.count.follow"
        return t(key, lang, need=count_cards(need, lang), n=need, got=got)
    if code == "MUST_FOLLOW_SUIT" and {"suit", "held", "need"} <= set(p):
        suit, held, need = str(p["suit"]), int(p["held"]), int(p["need"])
        args: dict[str, Any] = {
            "held": _held(suit, held),
            "held_n": held,
            "need": need,
            "suit": suit_name(suit, lang),
            "suits": _suit_short(suit, lang),
            "a_suit": _a_suit(suit),
            "other_n": need - held,
        }
        if held < need:
            if not zh:
                args["them"] = "it" if held == 1 else "both" if held == 2 else f"all {held}"
                args["others"] = (
                    "1 other card" if need - held == 1 else f"{need - held} other cards"
                )
            return t("err.detail.suit.rest", lang, **args)
        if need == 1:
            return t("err.detail.suit.one", lang, **args)
        return t("err.detail.suit.two" if need == 2 else "err.detail.suit.all", lang, **args)
    if code == "MUST_FOLLOW_FORMAT" and p.get("required") and "suit" in p:
        shapes, total = _shapes(p["required"], lang)
        return t(
            "err.detail.format",
            lang,
            shapes=shapes,
            suit=suit_name(str(p["suit"]), lang),
            suits=_suit_short(str(p["suit"]), lang),
            them="it" if total == 1 else "them",
        )
    if code == "THROW_FAILED" and p.get("attempted") and p.get("played"):
        penalty = int(p.get("penalty") or 0)
        if p.get("stake"):
            pen = t("err.detail.throw.stake", lang)
        elif penalty > 0:
            pen = t("err.detail.throw.plus", lang, n=penalty)
        elif penalty < 0:
            pen = t("err.detail.throw.minus", lang, n=-penalty)
        else:
            pen = ""
        blocker = p.get("blocker")
        if blocker is None:
            b = p.get("blocked_by")
            blocker = t("seat.n", lang, n=b) if b is not None else "?"
        who = p.get("who")
        owner = t("your", lang) if who in ("you", "你") else t("seat.owner", lang, who=who)
        return t(
            "err.detail.throw",
            lang,
            who=owner if who else "",
            attempted=cards_label(str(p["attempted"]), lang),
            played=cards_label(str(p["played"]), lang),
            blocker=blocker,
            penalty=pen,
        )
    if code == "ILLEGAL_DECLARATION" and p.get("reason") == "stronger_show" and "count" in p:
        return _stronger_show(p, lang)
    if code == "ILLEGAL_DECLARATION" and p.get("reason"):
        key = f"decl.{p['reason']}"
        if key in CATALOGUE:
            extra = {k: v for k, v in p.items() if k != "reason"}
            if "card" in extra:
                extra["card"] = card_label(str(extra["card"]), lang)
            try:
                return t(key, lang, **extra)
            except (KeyError, IndexError):
                return None
    if code == "NOT_YOUR_TURN" and "to_act" in p:
        if p["to_act"] is None:
            return t("err.detail.turn.nobody", lang)
        who = p.get("who") or t("seat.n", lang, n=p["to_act"])
        return t("err.detail.turn", lang, who=who)
    if code == "ILLEGAL_ACTION" and f"err.detail.action.{p.get('reason')}" in CATALOGUE:
        return t(f"err.detail.action.{p['reason']}", lang, **p)
    if code == "ILLEGAL_ACTION" and p.get("phase"):
        phase = str(p["phase"])
        group = "declare" if phase in DECLARING_PHASES else phase
        key = f"err.detail.phase.{group}"
        if key in CATALOGUE:
            return t(key, lang)
    return None


def _stronger_show(p: Mapping[str, Any], lang: str) -> str:
    """A ``stronger_show`` refusal (``count`` and ``ladder`` declaring): what beats the
    standing show, from its params."""
    n = int(p["count"])
    show = cards_label(str(p.get("show") or ""), lang)
    needs = []
    if p.get("more"):
        needs.append(
            t("decl.stronger.pair", lang) if n <= 1 else t("decl.stronger.more", lang, n=n)
        )
    beat = p.get("beat")
    if beat in ("priority", "jokers", "big_jokers"):
        needs.append(t(f"decl.stronger.{beat}", lang, n=n, show=show))
    if not needs:
        return t("decl.stronger_show.none", lang, show=show)
    return t("decl.stronger_show", lang, need=t("decl.stronger.or", lang).join(needs))


def error_text(code: str, params: Mapping[str, Any] | None, message: str, lang: str) -> str:
    """A player-facing message for an engine or server error ``code`` in ``en`` or ``zh``:
    the details from ``params`` where they are given, else a generic text for the code,
    else ``message``."""
    lang = _lang(lang)
    try:
        detail = _detail(code, params or {}, lang)
    except (KeyError, TypeError, ValueError):
        detail = None
    if detail:
        return detail
    if f"err.{code}" in CATALOGUE:
        return t(f"err.{code}", lang)
    return message or code


def code_table() -> str:
    """Every stable code (:class:`shengji.errors.Code`) as a Markdown table: its meaning
    and what players are shown in English and Chinese (``docs/errors.md`` is this table)."""
    from ..errors import Code

    rows = ["| code | meaning | players see (en) | players see (zh) |", "|---|---|---|---|"]
    for code in Code:
        en, zh = (
            CATALOGUE[f"err.{code}"][lang].replace("|", "\\|").replace("{", "").replace("}", "")
            for lang in ("en", "zh")
        )
        rows.append(f"| `{code}` | {code.meaning} | {en} | {zh} |")
    return "\n".join(rows) + "\n"
