#pragma once

#include <QObject>
#include <QString>

class QMenu;
class QWidget;

namespace keylens::models {
class ScanSession;
class ValueInspector;
} // namespace keylens::models

namespace keylens::ui {

class BrowserPane;

// File ▸ Export: the selected node's table (CSV, JSON), the whole tree in keylens-cli scan's JSON schema, and the
// values of the keys below the selected node as JSON lines (in the background, through the value inspector). Each
// file is written through a temporary file that replaces `path` once complete.
class ExportActions : public QObject
{
    Q_OBJECT

public:
    // Fills `menu`; the file dialogs are `dialogParent`'s.
    ExportActions(QMenu* menu, QWidget* dialogParent, const models::ScanSession& session, const BrowserPane& browser,
                  models::ValueInspector* inspector);

    bool exportNodeTable(const QString& path, bool json, QString* problem) const;
    bool exportTree(const QString& path, QString* problem) const;
    // valuesExported() tells when, in words.
    void exportValues(const QString& path);

Q_SIGNALS:
    void valuesExported(const QString& message, bool ok);
    // What the status bar should say (written, failed, how far the values are).
    void message(const QString& text);

private:
    const models::ScanSession& m_session;
    const BrowserPane& m_browser;
    models::ValueInspector* m_inspector;
};

} // namespace keylens::ui
