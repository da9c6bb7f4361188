#pragma once

#include <QByteArray>

#include <cstdio>

namespace keylens::cli {

inline void writeTo(std::FILE* stream, const QByteArray& bytes)
{
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stream);
    std::fflush(stream);
}
inline void writeStdout(const QByteArray& bytes)
{
    writeTo(stdout, bytes);
}
inline void writeStderr(const QByteArray& bytes)
{
    writeTo(stderr, bytes);
}

} // namespace keylens::cli
