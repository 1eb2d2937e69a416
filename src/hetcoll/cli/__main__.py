import sys

from hetcoll.cli import main

sys.exit(main())
