#include "redis/DeepReplyReader.h"

#include <hiredis/hiredis.h>

#include <climits>
#include <cstdlib>
#include <cstring>

namespace keylens::redis {

namespace {

constexpr long long LargestBulk = 512LL * 1024 * 1024; // the server's own proto-max-bulk-len default

redisReply* newReply(int type)
{
    auto* reply = static_cast<redisReply*>(std::calloc(1, sizeof(redisReply)));
    reply->type = type;
    return reply;
}

redisReply* newString(int type, const char* bytes, std::size_t size)
{
    redisReply* reply = newReply(type);
    reply->str = static_cast<char*>(std::malloc(size + 1));
    std::memcpy(reply->str, bytes, size);
    reply->str[size] = '\0';
    reply->len = size;
    return reply;
}

bool parseNumber(const char* text, qsizetype size, long long* value)
{
    if (size == 0)
        return false;
    bool negative = text[0] == '-';
    long long number = 0;
    for (qsizetype i = negative ? 1 : 0; i < size; ++i) {
        if (text[i] < '0' || text[i] > '9' || number > (LLONG_MAX - 9) / 10)
            return false;
        number = number * 10 + (text[i] - '0');
    }
    *value = negative ? -number : number;
    return negative ? size > 1 : true;
}

} // namespace

DeepReplyReader::~DeepReplyReader()
{
    if (!m_stack.empty())
        freeReplyObject(m_stack.front().array); // frees the partial tree below it too
}

void DeepReplyReader::feed(const char* bytes, qsizetype size)
{
    // Drop what was consumed before growing, so a long session does not keep every reply it ever read.
    if (m_position > 0 && m_position * 2 > m_buffer.size()) {
        m_buffer.remove(0, m_position);
        m_position = 0;
    }
    m_buffer.append(bytes, size);
}

void DeepReplyReader::place(redisReply* value, redisReply** root)
{
    while (!m_stack.empty()) {
        Frame& top = m_stack.back();
        top.array->element[top.filled++] = value;
        if (top.filled < top.array->elements)
            return;
        value = top.array; // complete: it is the value its parent waits for
        m_stack.pop_back();
    }
    *root = value;
}

Result<redisReply*> DeepReplyReader::next()
{
    redisReply* root = nullptr;
    while (!root) {
        const qsizetype end = m_buffer.indexOf("\r\n", m_position);
        if (end < 0)
            return static_cast<redisReply*>(nullptr);
        const char type = m_buffer[m_position];
        const char* line = m_buffer.constData() + m_position + 1;
        const qsizetype lineSize = end - m_position - 1;
        const auto malformed = [&] {
            return Error{
                ErrorKind::Protocol,
                QStringLiteral("protocol error: unexpected reply '%1'")
                    .arg(QString::fromLatin1(m_buffer.mid(m_position, std::min<qsizetype>(lineSize + 1, 40))))};
        };
        long long number = 0;
        switch (type) {
        case '+':
        case '-':
            place(newString(type == '+' ? REDIS_REPLY_STATUS : REDIS_REPLY_ERROR, line, std::size_t(lineSize)), &root);
            m_position = end + 2;
            break;
        case ':':
            if (!parseNumber(line, lineSize, &number))
                return malformed();
            {
                redisReply* integer = newReply(REDIS_REPLY_INTEGER);
                integer->integer = number;
                place(integer, &root);
            }
            m_position = end + 2;
            break;
        case '$':
            if (!parseNumber(line, lineSize, &number) || number < -1 || number > LargestBulk)
                return malformed();
            if (number == -1) {
                place(newReply(REDIS_REPLY_NIL), &root);
                m_position = end + 2;
                break;
            }
            if (m_buffer.size() < end + 2 + number + 2)
                return static_cast<redisReply*>(nullptr); // the rest of the string is still on its way
            place(newString(REDIS_REPLY_STRING, m_buffer.constData() + end + 2, std::size_t(number)), &root);
            m_position = end + 2 + number + 2;
            break;
        case '*':
            if (!parseNumber(line, lineSize, &number) || number < -1)
                return malformed();
            m_position = end + 2;
            if (number <= 0) {
                redisReply* array = newReply(number < 0 ? REDIS_REPLY_NIL : REDIS_REPLY_ARRAY);
                place(array, &root);
            } else {
                redisReply* array = newReply(REDIS_REPLY_ARRAY);
                array->elements = std::size_t(number);
                array->element = static_cast<redisReply**>(std::calloc(std::size_t(number), sizeof(redisReply*)));
                if (!array->element) {
                    freeReplyObject(array);
                    return Error{ErrorKind::Protocol, QStringLiteral("a reply of %1 elements is too big").arg(number)};
                }
                // Linked to its parent before it is complete, so a partial tree is freed whole; place() fills the
                // same slot once it is.
                if (!m_stack.empty())
                    m_stack.back().array->element[m_stack.back().filled] = array;
                m_stack.push_back({array, 0});
            }
            break;
        default:
            return malformed();
        }
    }
    return root;
}

} // namespace keylens::redis
