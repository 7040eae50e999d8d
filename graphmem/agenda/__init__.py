"""What an agent loads at session start beyond lessons: forward triggers (W10) and the core profile (W13)."""
