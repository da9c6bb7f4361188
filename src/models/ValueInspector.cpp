#include "models/ValueInspector.h"

#include "inspect/ValueExport.h"
#include "models/ConnectionLink.h"
#include "redis/Connection.h"

namespace keylens::models {

class ValueInspector::Link : public ConnectionLink
{};

ValueInspector::ValueInspector(QObject* parent)
    : QObject(parent)
    , m_userLink(std::make_shared<Link>())
    , m_backgroundLink(std::make_shared<Link>())
    , m_userJobs(tr("keylens value reader"))
    , m_backgroundJobs(tr("keylens length checks"))
{}

ValueInspector::~ValueInspector() = default; // the runners cancel and join, before the links go

void ValueInspector::setConnection(const redis::ConnectionOptions& options)
{
    m_userJobs.cancelAll();
    m_backgroundJobs.cancelAll();
    // Each link is reset on its own thread, after what was cancelled there has let go of it.
    const auto resetOn = [&options](base::JobRunner& runner, const std::shared_ptr<Link>& link) {
        runner.post([link, options](const base::JobContext&) {
            link->reset(options);
            return base::JobRunner::Delivery();
        });
    };
    resetOn(m_userJobs, m_userLink);
    resetOn(m_backgroundJobs, m_backgroundLink);
}

std::uint64_t ValueInspector::requestOverview(const QByteArray& key)
{
    return m_userJobs.post(
        [this, link = m_userLink, key](const base::JobContext& job) -> base::JobRunner::Delivery {
            Overview overview;
            overview.request = job.id;
            if (redis::Connection* connection = link->connect(job, &overview.error)) {
                redis::Result<inspect::KeyOverview> read = inspect::readKeyOverview(*connection, key);
                if (read) {
                    overview.key = std::move(*read);
                    if (overview.key.type == keyspace::KeyType::String)
                        overview.value = inspect::decodeValue(overview.key.valuePrefix);
                } else {
                    overview.error = read.error().message;
                }
            }
            return [this, overview = std::move(overview)] { Q_EMIT overviewReady(overview); };
        },
        Overviews);
}

std::uint64_t ValueInspector::requestPage(const QByteArray& key, keyspace::KeyType type,
                                          const inspect::ValueQuery& query, const QByteArray& position, int size)
{
    return m_userJobs.post(
        [this, link = m_userLink, key, type, query, position,
         size](const base::JobContext& job) -> base::JobRunner::Delivery {
            Page page;
            page.request = job.id;
            page.key = key;
            if (redis::Connection* connection = link->connect(job, &page.error)) {
                redis::Result<inspect::ValuePage> read =
                    inspect::readValuePage(*connection, key, type, query, position, size);
                if (read)
                    page.page = std::move(*read);
                else
                    page.error = read.error().message;
            }
            return [this, page = std::move(page)] { Q_EMIT pageReady(page); };
        },
        Pages);
}

std::uint64_t ValueInspector::requestServerStatus()
{
    return m_userJobs.post(
        [this, link = m_userLink](const base::JobContext& job) -> base::JobRunner::Delivery {
            Status status;
            status.request = job.id;
            if (redis::Connection* connection = link->connect(job, &status.error)) {
                redis::Result<redis::ServerStatus> read = redis::readServerStatus(*connection);
                if (read)
                    status.status = std::move(*read);
                else
                    status.error = read.error().message;
            }
            return [this, status = std::move(status)] { Q_EMIT serverStatusReady(status); };
        },
        Statuses);
}

std::uint64_t ValueInspector::requestEdit(const edit::KeyEdit& change)
{
    return m_userJobs.post([this, link = m_userLink, change](const base::JobContext& job) {
        Edit result;
        result.request = job.id;
        result.change = change;
        if (redis::Connection* connection = link->connect(job, &result.error)) {
            redis::Result<edit::EditOutcome> applied = edit::applyEdit(*connection, change);
            if (!applied) {
                result.error = applied.error().message;
            } else {
                result.outcome = *applied;
                auto facts = edit::readKeyFacts(*connection, change.key);
                if (facts)
                    result.key = *facts;
                const bool sameDatabase = change.database < 0 || change.database == connection->options().db;
                if (!change.newKey.isEmpty() && sameDatabase) {
                    auto newFacts = edit::readKeyFacts(*connection, change.newKey);
                    if (newFacts)
                        result.newKey = *newFacts;
                }
            }
        }
        return base::JobRunner::Delivery([this, result] { Q_EMIT editDone(result); });
    });
}

void ValueInspector::requestExport(std::vector<QByteArray> keys, const QString& path)
{
    m_backgroundJobs.post(
        [this, link = m_backgroundLink, keys = std::move(keys), path](const base::JobContext& job) {
            QString error;
            QString text;
            bool ok = false;
            if (redis::Connection* connection = link->connect(job, &error)) {
                const std::uint64_t total = keys.size();
                redis::Result<inspect::ValueExportSummary> exported = inspect::exportValues(
                    *connection, keys, path, job.cancel.get(), [this, &job, total](std::uint64_t done) {
                        job.send([this, done, total] { Q_EMIT exportProgress(done, total); });
                    });
                if (!exported) {
                    text = tr("The export stopped, and wrote nothing: %1").arg(exported.error().message);
                } else {
                    ok = !exported->cancelled;
                    text = exported->cancelled ? tr("The export was cancelled, and wrote nothing.")
                                               : tr("Exported %L1 keys to %2.").arg(exported->written).arg(path);
                    if (exported->gone > 0)
                        text += tr(" %L1 were gone by their turn.").arg(exported->gone);
                    if (exported->failed > 0)
                        text += tr(" %L1 could not be read (%2).").arg(exported->failed).arg(exported->firstProblem);
                }
            } else {
                text = tr("The export could not connect: %1").arg(error);
            }
            return base::JobRunner::Delivery([this, path, text, ok] { Q_EMIT exportDone(path, text, ok); });
        },
        Exports);
}

std::uint64_t ValueInspector::requestDelete(const QByteArray& key)
{
    // Lane 0: a delete is never superseded by the next one.
    return m_userJobs.post([this, link = m_userLink, key](const base::JobContext& job) {
        QString error;
        if (redis::Connection* connection = link->connect(job, &error)) {
            redis::Result<redis::Reply> reply = connection->command({"UNLINK", key});
            if (!reply)
                error = reply.error().message;
            else if (reply->isError())
                error = redis::errorFromReply(reply->bytes(), "UNLINK").message;
            else if (reply->integer() == 0)
                error = tr("The key was already gone.");
        }
        return base::JobRunner::Delivery([this, id = job.id, key, error] { Q_EMIT deleteDone(id, key, error); });
    });
}

} // namespace keylens::models
