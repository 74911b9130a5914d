/* Tar framing of the .cubex container, the way cubew 4.8 does it (format
 * note 1.3/1.4).  The one quirk that matters: CubeLib skips
 * (size/512 + 1) * 512 bytes after a non-empty member's header, i.e. always
 * at least one padding byte, so that is exactly the padding written here.
 * Callers keep member sizes off multiples of 512 so that GNU tar, which
 * stops at the extra zero block such a size would get, agrees as well. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cube-writer/pp_cube_internal.h"

/* Field offsets and widths of a POSIX ustar header block. */
enum {
    PP_CUBE_TAR_NAME = 0, PP_CUBE_TAR_NAME_LEN = 100,
    PP_CUBE_TAR_MODE = 100,
    PP_CUBE_TAR_UID = 108,
    PP_CUBE_TAR_GID = 116,
    PP_CUBE_TAR_SIZE = 124,
    PP_CUBE_TAR_MTIME = 136,
    PP_CUBE_TAR_CHKSUM = 148, PP_CUBE_TAR_CHKSUM_LEN = 8,
    PP_CUBE_TAR_TYPEFLAG = 156,
    PP_CUBE_TAR_MAGIC = 257,
    PP_CUBE_TAR_VERSION = 263,
    PP_CUBE_TAR_UNAME = 265,
    PP_CUBE_TAR_GNAME = 297
};

/* Writes digits octal digits plus a NUL at field (the field is digits+1 long). */
static void pp_cube_tar_octal(unsigned char *field, int digits, unsigned long long value)
{
    field[digits] = '\0';
    for (int i = digits - 1; i >= 0; i--) {
        field[i] = (unsigned char)('0' + (value & 7));
        value >>= 3;
    }
}

void pp_cube_tar_header(unsigned char header[PP_CUBE_TAR_BLOCK], const char *name,
                        uint64_t size, time_t mtime)
{
    memset(header, 0, PP_CUBE_TAR_BLOCK);
    size_t name_len = strlen(name);
    if (name_len > PP_CUBE_TAR_NAME_LEN) /* member names are ours: short */
        name_len = PP_CUBE_TAR_NAME_LEN;
    memcpy(header + PP_CUBE_TAR_NAME, name, name_len);
    memcpy(header + PP_CUBE_TAR_MODE, "0000600", 8);
    /* like cubew: real ids masked into the 7 octal digits of the field */
    pp_cube_tar_octal(header + PP_CUBE_TAR_UID, 7, (unsigned long long)getuid() & 07777777);
    pp_cube_tar_octal(header + PP_CUBE_TAR_GID, 7, (unsigned long long)getgid() & 07777777);
    pp_cube_tar_octal(header + PP_CUBE_TAR_SIZE, 11, size);
    pp_cube_tar_octal(header + PP_CUBE_TAR_MTIME, 11,
                      mtime > 0 ? (unsigned long long)mtime & 077777777777ULL : 0);
    header[PP_CUBE_TAR_TYPEFLAG] = '0';
    memcpy(header + PP_CUBE_TAR_MAGIC, "ustar", 6); /* "ustar" NUL */
    memcpy(header + PP_CUBE_TAR_VERSION, "00", 2);
    memcpy(header + PP_CUBE_TAR_UNAME, "nouser", 6);
    memcpy(header + PP_CUBE_TAR_GNAME, "users", 5);
    /* Checksum: summed with the field itself counted as spaces, stored as
     * six octal digits, NUL, and the eighth byte left a space. */
    memset(header + PP_CUBE_TAR_CHKSUM, ' ', PP_CUBE_TAR_CHKSUM_LEN);
    unsigned long sum = 0;
    for (int i = 0; i < PP_CUBE_TAR_BLOCK; i++)
        sum += header[i];
    pp_cube_tar_octal(header + PP_CUBE_TAR_CHKSUM, 6, sum);
}

uint64_t pp_cube_tar_padding(uint64_t size)
{
    if (size == 0)
        return 0;
    return (size / PP_CUBE_TAR_BLOCK + 1) * PP_CUBE_TAR_BLOCK - size;
}

void pp_cube_tar_member_begin(pp_cube_sink *sink, const char *name, uint64_t size)
{
    unsigned char header[PP_CUBE_TAR_BLOCK];
    pp_cube_tar_header(header, name, size, time(NULL));
    pp_cube_sink_write(sink, header, sizeof header);
}

void pp_cube_tar_member_end(pp_cube_sink *sink, uint64_t size)
{
    pp_cube_sink_zeros(sink, (size_t)pp_cube_tar_padding(size));
}

void pp_cube_tar_finish(pp_cube_sink *sink)
{
    pp_cube_sink_zeros(sink, 2 * PP_CUBE_TAR_BLOCK);
}
