"""memplan.Error, raised for every failure the package reports."""


class Error(Exception):
    """A memplan failure: ``message`` as the command line prints it
    (``file:line:col: error: ...`` where a place is known) and ``exit_code``
    as the command line returns it (2: bad input or options; 1: the plan
    does not fit or fails verification)."""

    def __init__(self, message: str, exit_code: int):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
