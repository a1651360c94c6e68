"""One module per command (as BAPCtools has): each defines HELP (one line for --help), ORDER (its
place there), add_arguments(parser) and run(options) -> exit status. tcjudge.cli finds them here, so
adding a command is adding a file. common.py holds what several commands share."""
