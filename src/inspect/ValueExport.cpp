#include "inspect/ValueExport.h"

#include "inspect/KeyReader.h"
#include "keyspace/KeyType.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace keylens::inspect {

namespace {

using redis::Error;
using redis::ErrorKind;
using redis::Reply;
using redis::Result;

constexpr int PageSize = 1000;

QJsonValue bytesValue(const QByteArray& bytes)
{
    const QString text = QString::fromUtf8(bytes);
    if (text.toUtf8() == bytes)
        return text;
    return QJsonObject{{QStringLiteral("base64"), QString::fromLatin1(bytes.toBase64())}};
}

// A stream's entries, from the first id, a page at a time.
Result<QJsonArray> streamEntries(redis::Connection& connection, const QByteArray& key, QString* problem)
{
    QJsonArray entries;
    QByteArray start = "-";
    while (true) {
        Result<Reply> page = connection.command({"XRANGE", key, start, "+", "COUNT", QByteArray::number(PageSize)});
        if (!page)
            return page.error();
        if (page->isError()) {
            *problem = QString::fromUtf8(page->bytes());
            return entries;
        }
        for (std::size_t i = 0; i < page->size(); ++i) {
            const redis::ReplyView entry = page->at(i);
            QJsonArray fields;
            const redis::ReplyView pairs = entry.at(1);
            for (std::size_t f = 0; f + 1 < pairs.size(); f += 2)
                fields.append(QJsonArray{bytesValue(pairs.at(f).bytes().toByteArray()),
                                         bytesValue(pairs.at(f + 1).bytes().toByteArray())});
            entries.append(QJsonObject{{QStringLiteral("id"), QString::fromLatin1(entry.at(0).bytes())},
                                       {QStringLiteral("fields"), fields}});
        }
        if (page->size() < std::size_t(PageSize))
            return entries;
        start = "(" + page->at(page->size() - 1).at(0).bytes().toByteArray(); // exclusive: after the last id
    }
}

} // namespace

Result<std::optional<QByteArray>> valueLine(redis::Connection& connection, const QByteArray& key, QString* problem)
{
    Result<std::vector<Reply>> facts = connection.pipeline({{"TYPE", key}, {"PTTL", key}});
    if (!facts)
        return facts.error();
    const Reply* type = &(*facts)[0];
    const Reply* pttl = &(*facts)[1];
    if (type->isError()) {
        *problem = QString::fromUtf8(type->bytes());
        return std::optional<QByteArray>();
    }
    if (type->bytes() == "none")
        return std::optional<QByteArray>();
    const keyspace::KeyType kind = keyspace::keyTypeFromName(type->bytes());
    QJsonObject line{{QStringLiteral("key"), bytesValue(key)},
                     {QStringLiteral("type"), QString::fromLatin1(type->bytes())},
                     {QStringLiteral("ttl_ms"), pttl->isInteger() && pttl->integer() >= 0
                                                    ? QJsonValue(double(pttl->integer()))
                                                    : QJsonValue(QJsonValue::Null)}};
    if (kind == keyspace::KeyType::String) {
        Result<Reply> value = connection.command({"GET", key});
        if (!value)
            return value.error();
        if (value->isError()) {
            *problem = QString::fromUtf8(value->bytes());
            return std::optional<QByteArray>();
        }
        if (value->isNil())
            return std::optional<QByteArray>();
        line.insert(QStringLiteral("value"), bytesValue(value->bytes().toByteArray()));
    } else if (kind == keyspace::KeyType::Stream) {
        Result<QJsonArray> entries = streamEntries(connection, key, problem);
        if (!entries)
            return entries.error();
        if (!problem->isEmpty())
            return std::optional<QByteArray>();
        line.insert(QStringLiteral("value"), *entries);
    } else if (kind == keyspace::KeyType::Hash || kind == keyspace::KeyType::List || kind == keyspace::KeyType::Set ||
               kind == keyspace::KeyType::ZSet) {
        QJsonArray elements;
        QByteArray position;
        while (true) {
            Result<ValuePage> page = readValuePage(connection, key, kind, {}, position, PageSize);
            if (!page) {
                if (page.error().isConnectionError() || page.error().kind == ErrorKind::ConnectionLost ||
                    page.error().kind == ErrorKind::Timeout || page.error().kind == ErrorKind::Cancelled)
                    return page.error();
                *problem = page.error().message;
                return std::optional<QByteArray>();
            }
            for (const ValueRow& row : page->rows) {
                switch (kind) {
                case keyspace::KeyType::Hash:
                    elements.append(QJsonArray{bytesValue(row.first), bytesValue(row.second)});
                    break;
                case keyspace::KeyType::ZSet:
                    elements.append(QJsonArray{bytesValue(row.first), row.second.toDouble()});
                    break;
                case keyspace::KeyType::List:
                    elements.append(bytesValue(row.second));
                    break;
                default:
                    elements.append(bytesValue(row.first));
                    break;
                }
            }
            if (page->done)
                break;
            position = page->nextPosition;
        }
        line.insert(QStringLiteral("value"), elements);
    } else {
        *problem = QStringLiteral("values of type '%1' are not exported").arg(QString::fromUtf8(type->bytes()));
        return std::optional<QByteArray>();
    }
    return std::optional<QByteArray>(QJsonDocument(line).toJson(QJsonDocument::Compact));
}

Result<ValueExportSummary> exportValues(redis::Connection& connection, const std::vector<QByteArray>& keys,
                                        const QString& path, const std::atomic<bool>* cancel,
                                        const std::function<void(std::uint64_t)>& progress)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error{ErrorKind::Usage, QStringLiteral("Cannot write %1: %2").arg(path, file.errorString())};
    ValueExportSummary summary;
    std::uint64_t done = 0;
    for (const QByteArray& key : keys) {
        if (cancel && cancel->load()) {
            summary.cancelled = true;
            file.cancelWriting(); // a cancelled export leaves no file, rather than a part of one
            return summary;
        }
        QString problem;
        Result<std::optional<QByteArray>> line = valueLine(connection, key, &problem);
        if (!line)
            return line.error(); // the temporary file goes with the QSaveFile
        if (line->has_value()) {
            if (file.write(**line + '\n') != (*line)->size() + 1)
                return Error{ErrorKind::Usage, QStringLiteral("Cannot write %1: %2").arg(path, file.errorString())};
            ++summary.written;
        } else if (problem.isEmpty()) {
            ++summary.gone;
        } else {
            ++summary.failed;
            if (summary.firstProblem.isEmpty())
                summary.firstProblem = problem;
        }
        if (progress && ++done % 100 == 0)
            progress(done);
    }
    if (!file.commit())
        return Error{ErrorKind::Usage, QStringLiteral("Cannot write %1: %2").arg(path, file.errorString())};
    return summary;
}

} // namespace keylens::inspect
