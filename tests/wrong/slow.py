"""Never answers."""

import time

time.sleep(60)
