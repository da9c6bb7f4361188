#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <memory>

struct redisReply;

namespace keylens::redis {

// A read-only look at one RESP2 reply (or an element of an array reply). Valid while the Reply
// that owns it lives.
class ReplyView
{
public:
    explicit ReplyView(const redisReply* reply = nullptr)
        : m_reply(reply)
    {}

    bool isNull() const { return m_reply == nullptr; }
    bool isString() const; // bulk string
    bool isStatus() const; // +OK
    bool isError() const;  // -ERR ...
    bool isInteger() const;
    bool isNil() const;
    bool isArray() const;

    // The bytes of a bulk string, status or error reply; empty for other types.
    QByteArrayView bytes() const;
    long long integer() const;
    std::size_t size() const; // elements of an array reply
    ReplyView at(std::size_t index) const;

private:
    const redisReply* m_reply;
};

// An owned reply from hiredis's reader.
class Reply : public ReplyView
{
public:
    explicit Reply(redisReply* reply);

private:
    struct Free
    {
        void operator()(redisReply* reply) const;
    };
    std::unique_ptr<redisReply, Free> m_owner;
};

} // namespace keylens::redis
