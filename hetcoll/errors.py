"""The one exception type for bad user input."""


class InputError(ValueError):
    """Invalid user input: a platform, a cost, a parameter or a file.

    The message is a single line that names the culprit (which link, which
    processor, which field).  The command line prints it on stderr and exits
    with status 2; library callers can catch it as a ``ValueError``.
    """
