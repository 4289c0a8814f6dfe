"""`pbrain-pentad check BRAIN`: a protocol conformance check for any Gomocup brain, and the transcript player that
replays protocol sessions against a brain (the check's scenarios and Pentad's own transcripts alike)."""
