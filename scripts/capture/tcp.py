import socket, threading
N = 8 << 20
srv = socket.socket(); srv.bind(('127.0.0.1', 0)); srv.listen(1)
port = srv.getsockname()[1]
def sink():
    c, _ = srv.accept()
    got = 0
    while got < N:
        b = c.recv(1 << 16)
        if not b: break
        got += len(b)
    c.close()
t = threading.Thread(target=sink); t.start()
s = socket.create_connection(('127.0.0.1', port))
buf = b'x' * (64 << 10)
for _ in range(N // len(buf)):
    s.sendall(buf)
s.close(); t.join()
