"""What the pages say and start with: the glossary, teaching sentences, a fresh session's defaults."""
