// fault-workload.ts: the small address-space workload the fault reader's and the fault views'
// tests share: three threads of one process, two VMAs (one read-only), CPU 1 faulting 9 pages,
// CPU 0 mapping, filling and unmapping a 64-page buffer, then CPU 1 faulting once more (under
// 4.16 behind the munmap's write hold), and CPU 2 working in user space.
export const FAULT_WORKLOAD = `machine nodes=1 cpus=4 normal=65536
cpu 0 thread mm=0
cpu 1 thread mm=0
cpu 2 thread mm=0
cpu 1 mmap mm=0 at=0 pages=512 prot=rw
cpu 2 mmap mm=0 at=1024 pages=512 prot=r
cpu 1 touch mm=0 at=0 pages=9 write
cpu 0 mmap mm=0 at=4096 pages=64 prot=rw
cpu 0 touch mm=0 at=4096 pages=64 write
cpu 0 munmap mm=0 at=4096 pages=64
cpu 1 touch mm=0 at=9 pages=1 write
cpu 2 work ns=5000
`;
