import os
import sys

# tests import their brute-force helpers as plain modules
sys.path.insert(0, os.path.dirname(__file__))
