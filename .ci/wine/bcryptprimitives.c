/* ProcessPrng, the one function of bcryptprimitives.dll that Rust's standard library imports on
 * Windows (its random source since Rust 1.78). Wine 8 (Debian 12's) has no bcryptprimitives.dll,
 * so a Windows test binary would not start there; .ci/test builds this stand-in with mingw-w64
 * and puts it on Wine's DLL path for the Windows test run only. It fills the buffer from
 * RtlGenRandom (advapi32's SystemFunction036), which Wine has. Never shipped with a game. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG n = length > 0x7fffffff ? 0x7fffffff : (ULONG)length;
        if (!SystemFunction036(data, n)) {
            return FALSE;
        }
        data += n;
        length -= n;
    }
    return TRUE;
}
