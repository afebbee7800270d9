# The material tests/thirdparty/posix-suite.sh is pinned to: each repository's commit and the
# sha256 of the sorted list of sha256 sums of the files it extracts.
EMSCRIPTEN_COMMIT=a04d0beef36bfa7661cee4b8dff7d3909303dabc
EMSCRIPTEN_SOURCES_SHA256=aa0603ab60301493ee2160dbf24497ee393e1c155621ebf5788a2ca48a1620d0
EMSCRIPTEN_DIRS=(test/unistd test/fcntl test/dirent test/stdio test/stat test/fs)
WASI_COMMIT=e1f53e05d1289534a556d33dec96f8a610aeccbb
WASI_SOURCES_SHA256=195d3f9284893f2ebf978c04bc4d0bae836e8fc49434d1c518eb96d9797d7141
