#!/usr/bin/env python3
"""Prints the HTTP status of GET URL (a real client for the Swift tests' quick probes).

    http_status.py URL [--accept TYPE] [--body]   (--body: the body follows the status line)
"""
import sys
import requests

url = sys.argv[1]
headers = {}
if "--accept" in sys.argv:
    headers["Accept"] = sys.argv[sys.argv.index("--accept") + 1]
r = requests.get(url, timeout=30, headers=headers)
print(r.status_code)
if "--body" in sys.argv:
    print(r.text)
