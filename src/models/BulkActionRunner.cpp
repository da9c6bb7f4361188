#include "models/BulkActionRunner.h"

#include "redis/Connection.h"

namespace keylens::models {

namespace {

// Each lane's newer job supersedes its older one; the check and the run do not wait for each other.
enum Lane { Check = 1, Action };

} // namespace

BulkActionRunner::BulkActionRunner(redis::ConnectionOptions connection, QObject* parent)
    : QObject(parent)
    , m_connection(std::move(connection))
{}

BulkActionRunner::~BulkActionRunner()
{
    m_cancel->store(true); // the run's batches stop; the job runner then cancels and joins
}

void BulkActionRunner::check(const edit::KeySelection& selection)
{
    m_jobs.post(
        [this, selection, connection = m_connection](const base::JobContext& job) -> base::JobRunner::Delivery {
            auto opened = redis::Connection::open(connection, job.cancel.get());
            QString text;
            if (!opened) {
                text = tr("Could not ask the server what changed: %1").arg(opened.error().message);
            } else {
                redis::Result<edit::SelectionCheck> check =
                    edit::checkSinceScan(**opened, selection, scan::ScanSpeed::Gentle, job.cancel.get());
                text = !check ? tr("Could not ask the server what changed: %1").arg(check.error().message)
                       : check->changed() == 0
                           ? tr("None of the %L1 keys changed since the scan.").arg(check->checked)
                           : tr("%L1 of %L2 keys changed since the scan (%L3 gone, %L4 of another type); "
                                "they are skipped or acted on as they are now.")
                                 .arg(check->changed())
                                 .arg(check->checked)
                                 .arg(check->gone)
                                 .arg(check->typeChanged);
            }
            return [this, text] { Q_EMIT checked(text); };
        },
        Check);
}

void BulkActionRunner::run(const edit::BulkRequest& request)
{
    m_jobs.post(
        [this, request, connection = m_connection,
         cancel = m_cancel](const base::JobContext& job) -> base::JobRunner::Delivery {
            edit::BulkSummary summary;
            auto opened = redis::Connection::open(connection);
            if (!opened) {
                summary.kind = request.kind;
                summary.total = request.keys.size();
                summary.notAttempted = summary.total;
                summary.outcomes.assign(request.keys.size(), edit::KeyOutcome::NotAttempted);
                summary.stoppedBy = opened.error();
            } else {
                summary = edit::runBulkAction(**opened, request, cancel.get(), [&](const edit::BulkProgress& step) {
                    job.send([this, processed = step.processed] { Q_EMIT progress(processed); });
                });
            }
            return [this, summary] { Q_EMIT ended(summary); };
        },
        Action);
}

} // namespace keylens::models
