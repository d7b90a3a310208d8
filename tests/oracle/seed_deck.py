#!/usr/bin/env python3
"""seed_deck.py -- the decks of a game's seed, derived again from the words
of include/scopa.h ("Seeds") and RULES.md, without the library: xoshiro256**
seeded from the seed's four 64-bit words and the round, Lemire's bounded
draw, the library's Fisher-Yates order (scopa_rng_deck: from the top card
index 39 down, two draws per 64-bit output, the high half first), void
deals redealt under kings_redeal.  tests/engine/test_python.py compares it
with scopa.seed_deck, so the library cannot drift from what it documents.
"""
M64 = (1 << 64) - 1


def mix(z):
    z = (z + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M64


class Xoshiro(object):
    def __init__(self, seed, round_index):
        value = int(seed, 16)
        words = [(value >> (64 * (3 - i))) & M64 for i in range(4)]
        k = (round_index * 4) & M64
        self.s = [mix(words[i] ^ mix((k + i + 1) & M64)) for i in range(4)]
        if not any(self.s):
            self.s[0] = 1

    def next(self):
        s = self.s
        result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def below_from(self, bits, n):
        m = bits * n
        if (m & 0xFFFFFFFF) < n:
            floor = ((1 << 32) - n) % n
            while (m & 0xFFFFFFFF) < floor:
                m = (self.next() >> 32) * n
        return m >> 32

    def below(self, n):
        return self.below_from(self.next() >> 32, n)

    def deck(self):
        d = list(range(40))
        i = 39
        while i > 1:
            r = self.next()
            j = self.below_from(r >> 32, i + 1)
            d[i], d[j] = d[j], d[i]
            j = self.below_from(r & 0xFFFFFFFF, i)
            d[i - 1], d[j] = d[j], d[i - 1]
            i -= 2
        r = self.next()
        j = self.below_from(r >> 32, 2)
        d[1], d[j] = d[j], d[1]
        return d


SUITS = "dcsb"


def card_str(c):
    return "%d%s" % (c // 4 + 1, SUITS[c % 4])


def deal_sizes(rules):
    """(players, hand cards, table cards) of RULES.md "The deal"."""
    game = rules.get("game", "scopa")
    if game == "scopone":
        return 4, 9, 4
    if game == "scopone_scientifico":
        return 4, 10, 0
    return rules.get("players", 2), 3, 4


def seed_deck(seed, round_index, rules=None):
    rules = rules or {}
    players, hand, table = deal_sizes(rules)
    rng = Xoshiro(seed, round_index)
    while True:
        d = rng.deck()
        on_table = d[players * hand:players * hand + table]
        kings = sum(1 for c in on_table if c // 4 + 1 == 10)
        if not (rules.get("kings_redeal", True) and kings >= 3):
            return [card_str(c) for c in d]


def seed_dealer(seed, players):
    return Xoshiro(seed, -1).below(players)
