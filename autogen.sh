#!/bin/sh
# Generates ./configure from configure.ac (needs autoconf and automake).
exec autoreconf --install --force "$(dirname "$0")"
