"""The Gomocup / Piskvork protocol: the parser, the session state machine, settings, the thinking worker and
start-up."""
