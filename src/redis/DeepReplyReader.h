#pragma once

#include "redis/Error.h"

#include <QByteArray>

#include <vector>

struct redisReply;

namespace keylens::redis {

// A RESP2 reader without hiredis 0.14's limit of seven nested arrays ("No support for nested multi bulk replies with
// depth > 7"), which COMMAND DOCS and some module replies pass. It builds the same redisReply trees (allocated as
// hiredis allocates them, so freeReplyObject frees them) and reads on where the last feed stopped: each byte is
// looked at once, however the reply arrives in pieces. The console's connection uses it (ConnectionOptions::
// deepReplies); scans keep hiredis's reader.
class DeepReplyReader
{
public:
    DeepReplyReader() = default;
    ~DeepReplyReader();
    DeepReplyReader(const DeepReplyReader&) = delete;
    DeepReplyReader& operator=(const DeepReplyReader&) = delete;

    void feed(const char* bytes, qsizetype size);
    // The next complete reply (the caller owns it), nullptr while more bytes are needed, or an error for bytes that
    // are not RESP2.
    Result<redisReply*> next();

private:
    struct Frame
    {
        redisReply* array;
        std::size_t filled;
    };
    // Puts a finished value into the array being filled, closing every array it completes; the finished root comes
    // back in `root`.
    void place(redisReply* value, redisReply** root);

    QByteArray m_buffer;
    qsizetype m_position = 0;
    std::vector<Frame> m_stack;
};

} // namespace keylens::redis
