"""The critic: judges a synthesis against the evidence it cites (`judge.Critic`).

An answer is split into claims (`claims`), each claim is compared with its cited sentences
(`support`, from the text checks in `grounding` and the contradiction cues in `contradiction`,
`contradiction_cues` and `contradiction_scope`), and the statuses become a verdict (`verdict`).
"""
