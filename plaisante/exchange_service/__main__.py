"""``python -m plaisante.exchange_service``: the exchange service (``service.main``)."""

import sys

from .service import main

sys.exit(main())
