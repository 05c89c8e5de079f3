/*
 * bcryptprimitives.dll for Wine 8, which lacks it: Go's runtime (1.22 and
 * later) loads ProcessPrng from it at start and dies without it ("fatal
 * error: bcryptprimitives.dll not found"). Test support for CI only
 * (.ci/wine/setup builds it into a Wine prefix); no Go package uses it.
 *
 * ProcessPrng is documented to always succeed; RtlGenRandom
 * (SystemFunction036, advapi32) takes a ULONG length, so the buffer is
 * filled in chunks.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
	while (length > 0) {
		ULONG n = length > 0x10000000 ? 0x10000000 : (ULONG)length;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		length -= n;
	}
	return TRUE;
}
