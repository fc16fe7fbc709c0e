"""What a query asks for: its intent (`detect`), the cue rules behind it (`rules`), its topic, target,
depth wording and sub-queries (`focus`), the filters and content words in its wording (`words`), and
the kind of answer a question wants (`question_type`)."""
