"""Bots: players that choose actions from what their seat may see."""
