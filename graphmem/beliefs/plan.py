"""The consolidation plan: what a new statement does to the similar memories already stored.

The LLM returns this shape; the offline judge builds the same one, so the writer has one input.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class BeliefAction(BaseModel):
    """What to do with one stored memory in the light of the new statement."""

    memory_id: str = Field(description="id of the stored memory this action is about")
    action: Literal["keep", "update", "delete"] = Field(
        description="keep: both stay true; update: the new statement replaces this one (a newer "
        "value for the same thing); delete: the new statement shows this one is wrong"
    )
    reason: str = Field(default="", description="one short phrase")
    in_part: bool = Field(
        default=False,
        description="update only: the new statement changes only some of the things the stored "
        "memory says, and the rest still holds (it stays current, marked as contradicted in part)",
    )


class BeliefPlan(BaseModel):
    """The plan for one new statement."""

    actions: list[BeliefAction] = Field(default_factory=list)
    insert_new: bool = Field(
        default=True, description="false only when the new statement adds nothing to a stored one"
    )

    def replaced(self) -> dict[str, str]:
        """Stored memory ids the new statement contradicts, with the reason."""
        return {a.memory_id: a.reason or a.action for a in self.actions if a.action != "keep"}

    def in_part(self) -> set[str]:
        """Stored memory ids of :meth:`replaced` that the new statement contradicts only in part:
        they stay current for the rest of what they say."""
        return {a.memory_id for a in self.actions if a.action == "update" and a.in_part}
