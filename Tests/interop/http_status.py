#!/usr/bin/env python3
"""Prints the HTTP status of GET URL (a real client for the Swift tests' quick probes)."""
import sys
import requests

print(requests.get(sys.argv[1], timeout=30).status_code)
