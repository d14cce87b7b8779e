"""Answer scoring: extract the final answer, normalise it by answer type, match it against the gold.

The bottom room of the evaluation side (it imports only ``dataset_builders.core``): the typed scorer
(:mod:`.typed`), its matchers and parsers, majority voting, the sample types every samples reader
shares, and the papers' frozen prompts."""
