#!/usr/bin/env python3
# Runs a static native program the way spindle run starts a module: at / of a fresh tree of its
# own (with /tmp, /home, /dev and /proc), as an ordinary user with no groups, no environment
# and no fds but 0-2. Called by posix-suite.sh inside `unshare -m` (the binds stay private).
# Usage: native-root.py ROOT PROGRAM UID GID
import os
import subprocess
import sys

root, program, uid, gid = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
for name in ('dev', 'proc'):
    subprocess.run(['mount', '--bind', f'/{name}', os.path.join(root, name)], check=True)
# Opened before the chroot, run by fd: the program is not a file of its own tree.
fd = os.open(program, os.O_RDONLY | os.O_CLOEXEC)
os.chroot(root)
os.chdir('/')
os.setgroups([])
os.setgid(gid)
os.setuid(uid)
os.closerange(3, fd)
os.closerange(fd + 1, 1 << 16)
os.execve(fd, [os.path.basename(program)], {})
