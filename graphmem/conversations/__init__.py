"""Conversations: turns, the memory nudge (W8), lessons (W9), session flush (W11) and session start."""
