"""Environments for learning code (the ``env`` extra: ``pip install 'euchrelog[env]'``):
:class:`EuchreEnv`, a PettingZoo AEC environment of every variant, and
:class:`EuchreGymEnv`, a Gymnasium environment of one seat with the others played by
given players. The observation is a fixed-size vector of what the seat may know
(:data:`~.observation.LAYOUT`, docs/api.md "The environment") and the action mask; the
actions are the numbers of the table of acts.
"""

from __future__ import annotations

from .aec import EuchreEnv, env
from .gym import EuchreGymEnv
from .observation import LAYOUT, SIZE

__all__ = ["LAYOUT", "SIZE", "EuchreEnv", "EuchreGymEnv", "env"]
