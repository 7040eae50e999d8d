// Range index on FutureTrigger.due_on: session start looks up what is due on a day.
// mode: schema
CREATE INDEX future_trigger_due_on IF NOT EXISTS FOR (t:FutureTrigger) ON (t.due_on)
