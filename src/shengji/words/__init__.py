"""The words: the message catalogue in English and Chinese and the functions that word
cards, trumps, calls and errors for people (``i18n``), and the options' help
(``option_help``). Words may import the rules, the kernel and ``shengji.errors``, nothing
above them (the game's texts and narration import words, never the reverse; a bot's
turn does not import them until a reason is asked for). tests/test_architecture.py
checks it.
"""
