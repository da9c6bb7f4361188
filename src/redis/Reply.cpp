#include "redis/Reply.h"

#include <hiredis/hiredis.h>

namespace keylens::redis {

bool ReplyView::isString() const
{
    return m_reply && m_reply->type == REDIS_REPLY_STRING;
}
bool ReplyView::isStatus() const
{
    return m_reply && m_reply->type == REDIS_REPLY_STATUS;
}
bool ReplyView::isError() const
{
    return m_reply && m_reply->type == REDIS_REPLY_ERROR;
}
bool ReplyView::isInteger() const
{
    return m_reply && m_reply->type == REDIS_REPLY_INTEGER;
}
bool ReplyView::isNil() const
{
    return m_reply && m_reply->type == REDIS_REPLY_NIL;
}
bool ReplyView::isArray() const
{
    return m_reply && m_reply->type == REDIS_REPLY_ARRAY;
}

QByteArrayView ReplyView::bytes() const
{
    if (!m_reply || !(isString() || isStatus() || isError()))
        return {};
    return QByteArrayView(m_reply->str, static_cast<qsizetype>(m_reply->len));
}

long long ReplyView::integer() const
{
    return isInteger() ? m_reply->integer : 0;
}

std::size_t ReplyView::size() const
{
    return isArray() ? m_reply->elements : 0;
}

ReplyView ReplyView::at(std::size_t index) const
{
    return index < size() ? ReplyView(m_reply->element[index]) : ReplyView();
}

Reply::Reply(redisReply* reply)
    : ReplyView(reply)
    , m_owner(reply)
{}

void Reply::Free::operator()(redisReply* reply) const
{
    freeReplyObject(reply);
}

} // namespace keylens::redis
