"""The query path: retrieval, intent, evidence, depth plans, synthesis, the critic, related papers.

`ask.Asker` runs a question: `intent/` reads the query, `gather` and `evidence` pick the
sentences to quote, `presence` decides whether the library holds the answer, `plan` and
`synthesis` have the model write from the evidence, and `critic/` checks every sentence.
"""
