#pragma once

#include <QLabel>

namespace keylens::ui {

// A one-line label that gives up width without cutting a word in half: narrower than its text, it ends in "…"
// and its tooltip holds the whole line. A plain QLabel in a status bar was clipped at the window's edge mid-word
// ("2 vanished during the s"), with nothing to tell there was more.
class ElidedLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);

    void setFullText(const QString& text);
    const QString& fullText() const { return m_fullText; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void elide();

    QString m_fullText;
};

} // namespace keylens::ui
