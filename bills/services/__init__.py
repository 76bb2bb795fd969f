"""The bill app's writers: importing (all or nothing) and deleting bills."""
