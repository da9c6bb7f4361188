#include "live/EventSubscriber.h"

#include "live/KeyEvents.h"
#include "redis/Connection.h"

#include <climits>
#include <future>

namespace keylens::live {

EventSubscriber::EventSubscriber(const redis::ConnectionOptions& options, keyspace::Delimiters delimiters)
    : m_options(options)
    , m_gathered(EventCounts(std::move(delimiters)))
{
    // A quiet keyspace sends nothing for long: waiting is not a timeout here.
    m_options.commandTimeoutMs = INT_MAX;
}

EventSubscriber::EventSubscriber(const redis::ConnectionOptions& options, std::size_t maxKeys)
    : m_options(options)
    , m_gathered(ChangedKeys(maxKeys))
{
    m_options.commandTimeoutMs = INT_MAX;
}

EventSubscriber::~EventSubscriber()
{
    stop();
}

redis::Status EventSubscriber::start()
{
    // The connection is opened, subscribed and read on the reader's thread: a socket belongs to the thread that made
    // it, and one read elsewhere warned "QSocketNotifier: Socket notifiers cannot be enabled or disabled from another
    // thread" when the server went away.
    std::promise<redis::Status> subscribed;
    std::future<redis::Status> outcome = subscribed.get_future();
    m_reader.start([this, &subscribed] {
        redis::Status status = subscribe();
        const bool ok = bool(status);
        subscribed.set_value(std::move(status)); // `subscribed` is not touched after this
        if (ok)
            readEvents();
        m_connection.reset(); // on the thread that made it
    });
    return outcome.get();
}

redis::Status EventSubscriber::subscribe()
{
    redis::Result<std::unique_ptr<redis::Connection>> opened = redis::Connection::open(m_options, m_reader.stopFlag());
    if (!opened)
        return opened.error();
    m_connection = std::move(*opened);
    const QByteArray channels = keyEventChannels(m_options.db);
    redis::Result<redis::Reply> subscribed = m_connection->command({"PSUBSCRIBE", channels});
    if (!subscribed)
        return subscribed.error();
    if (subscribed->isError())
        return redis::errorFromReply(subscribed->bytes(), "PSUBSCRIBE");
    return {};
}

void EventSubscriber::readEvents()
{
    while (!m_reader.isStopRequested()) {
        redis::Result<redis::Reply> message = m_connection->read();
        if (!message) {
            if (message.error().kind != redis::ErrorKind::Cancelled) {
                const std::lock_guard lock(m_mutex);
                m_error = message.error();
            }
            return;
        }
        // ["pmessage", pattern, channel, key]
        if (!message->isArray() || message->size() != 4 || message->at(0).bytes() != "pmessage")
            continue;
        const std::optional<KeyEvent> event = keyEventOf(eventNameOf(message->at(2).bytes()));
        if (!event)
            continue;
        const std::lock_guard lock(m_mutex);
        std::visit([&](auto& gathered) { gathered.add(message->at(3).bytes(), *event); }, m_gathered);
        ++m_eventsRead;
    }
}

std::vector<PatternEvents> EventSubscriber::takeCounts()
{
    const std::lock_guard lock(m_mutex);
    EventCounts* counts = std::get_if<EventCounts>(&m_gathered);
    return counts ? counts->take() : std::vector<PatternEvents>();
}

std::vector<KeyChange> EventSubscriber::takeChangedKeys(bool* overflowed)
{
    const std::lock_guard lock(m_mutex);
    ChangedKeys* keys = std::get_if<ChangedKeys>(&m_gathered);
    *overflowed = keys && keys->overflowed();
    return keys ? keys->take() : std::vector<KeyChange>();
}

std::optional<redis::Error> EventSubscriber::failure() const
{
    const std::lock_guard lock(m_mutex);
    return m_error;
}

void EventSubscriber::stop()
{
    m_reader.stop(); // a blocked read ends within the connection's cancel slice
}

} // namespace keylens::live
