import sys

from reversi_tui.cli import main

sys.exit(main())
