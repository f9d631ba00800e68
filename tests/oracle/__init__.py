"""The independent test oracle: the object rules core the kernel was ported from.

``units``, ``follow``, ``leads``, ``throws`` and ``tricks`` decide the play rules on
:class:`~shengji.rules.cards.Card` objects, written for clarity rather than speed; ``scoring``
and ``friends`` end a hand (written from docs/rules.md); ``game`` is the object game flow
over them. The product answers every rules question from the kernel
(:mod:`shengji.kernel`); the tests compare it with this oracle on random positions, hands
and whole matches, and never the kernel with itself.
"""
