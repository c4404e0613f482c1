#include "engine/runtime/cancellation.hpp"

namespace squall {

void CancellationCallback::arm(CancellationToken token, Fn fn, void* context) {
  disarm();
  CancellationSource* source = token.source_;
  if (source == nullptr) return;
  if (source->cancelled()) {
    fn(context);
    return;
  }
  fn_ = fn;
  context_ = context;
  source->link(*this);
}

void CancellationCallback::disarm() noexcept {
  if (source_ != nullptr) source_->unlink(*this);
}

CancellationSource::CancellationSource(CancellationToken parent) {
  parent_link_.arm(parent, &CancellationSource::on_parent_cancelled, this);
}

CancellationSource::~CancellationSource() {
  // Detach what is still registered: those callbacks can no longer fire.
  while (!callbacks_.empty()) unlink(*callbacks_.front());
}

void CancellationSource::on_parent_cancelled(void* self) { static_cast<CancellationSource*>(self)->cancel(); }

void CancellationSource::link(CancellationCallback& node) {
  node.source_ = this;
  callbacks_.push_back(node);
}

void CancellationSource::unlink(CancellationCallback& node) noexcept {
  callbacks_.remove(node);
  node.source_ = nullptr;
}

void CancellationSource::cancel() {
  if (cancelled_) return;
  cancelled_ = true;
  // Each node is unlinked before its callback runs, so the callback may destroy it, and
  // taking the head each time stays correct when a callback unregisters other nodes.
  while (!callbacks_.empty()) {
    CancellationCallback& node = *callbacks_.front();
    unlink(node);
    node.fn_(node.context_);
  }
}

}  // namespace squall
