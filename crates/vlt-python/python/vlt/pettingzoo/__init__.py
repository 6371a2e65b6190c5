"""PettingZoo: Vai Lung Thlan as an AEC environment for two agents.

>>> from vlt.pettingzoo import vai_lung_thlan_v0
>>> env = vai_lung_thlan_v0.env()
"""

from vlt.pettingzoo import vai_lung_thlan_v0

__all__ = ["vai_lung_thlan_v0"]
