"""Packaging hook: the C library goes into the package when it is built.

`pip install ./python` from retrodb's source tree runs this: when
retrodb/_lib/libretrodb.so is not there yet, it asks the tree's Makefile
for it (`make python-lib`: the shared library, built and copied in), so
that the installed package works without a `make python` first. Outside a
source tree (an sdist on its own) there is nothing to build from, and the
build stops saying so rather than installing a package that cannot load.
Everything else is in pyproject.toml.
"""
import os
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY = os.path.join(HERE, "retrodb", "_lib", "libretrodb.so")


class BuildWithLibrary(build_py):
    def run(self):
        if not os.path.exists(LIBRARY):
            tree = os.path.dirname(HERE)
            if not os.path.exists(os.path.join(tree, "Makefile")):
                raise SystemExit("retrodb: the C library is not in the package and there is no "
                                 "retrodb source tree around it to build it from; run "
                                 "`make python` in the source tree")
            print("retrodb: building the C library (make python-lib in %s)" % tree)
            subprocess.run(["make", "-C", tree, "python-lib"], check=True)
        super().run()


setup(cmdclass={"build_py": BuildWithLibrary})
