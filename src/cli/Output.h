#pragma once

#include <QByteArray>

#include <cstdio>

namespace keylens::cli {

// Writes and flushes; false when the stream took less than all of it (a full disk, /dev/full, a closed
// pipe): a report that could not be written is an error, never a silent truncation.
inline bool writeTo(std::FILE* stream, const QByteArray& bytes)
{
    const auto size = static_cast<std::size_t>(bytes.size());
    const bool written = std::fwrite(bytes.constData(), 1, size, stream) == size;
    return std::fflush(stream) == 0 && written && !std::ferror(stream);
}
inline bool writeStdout(const QByteArray& bytes)
{
    return writeTo(stdout, bytes);
}
inline void writeStderr(const QByteArray& bytes)
{
    writeTo(stderr, bytes);
}

} // namespace keylens::cli
