"""``python -m cardtable``: the command line."""

from cardtable.cli import main

if __name__ == "__main__":
    main(prog_name="cardtable")
