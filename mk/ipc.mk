# mk/ipc.mk - IPC beyond pipes (docs/ipc.md): named pipes (mkfifo) and
# poll. The programs go into the image; the suite runs user/ipctest on 1,
# 3 and 8 harts (tests/guest/ipc_tests.py).
UPROG_NAMES += mkfifo ipctest
UPROG_PARTS_ipctest := testkit
GUEST_SUITES += tests/guest/ipc_tests.py 1 3 8
