// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// NewReno as RFC 5681 / RFC 6582 write it and ns-3's TcpNewReno implements it:
// slow start by one SMSS per ACK (RFC 5681 3.1 eq. 2, no RFC 3465 byte counting),
// congestion avoidance by SMSS*SMSS/cwnd bytes per ACK (eq. 3), ssthresh from the
// flight size (eq. 4), and growth whether or not the window is used (ns-3 has no
// RFC 7661 validation).

#include "congestion_model.h"

namespace windscope::analysis::cwnd {

class NewRenoModel final : public CongestionModel
{
public:
    std::string_view name() const override { return "newreno"; }
    std::unique_ptr<CongestionModel> clone() const override { return std::make_unique<NewRenoModel>(*this); }
    // After RFC 6582 and ns-3's TcpNewReno: no RACK-TLP, growth on every ACK, RFC 5681
    // 3.1's ssthresh at every RTO as TcpSocketBase::ReTxTimeout() applies it, no undo.
    ModelTraits traits() const override
    {
        return {.cwndLimited = CwndLimitedRule::EveryAck, .rtoResetsSsthresh = true, .undoesSpuriousReductions = false,
                .slowStartOneSmssPerAck = true};
    }
    // TcpNewReno::IncreaseWindow(): SlowStart() then CongestionAvoidance().
    void increaseWindow(SenderState& state, const AckEvent& ack) override;
    // RFC 5681 (4): max(FlightSize / 2, 2 * SMSS); TcpNewReno::GetSsThresh().
    std::uint64_t ssthresh(const SenderState& state, std::uint64_t flightBytes) override;
};

// TcpNewReno::IncreaseWindow() on its own, for the ns-3 models that inherit it
// (TcpWestwood, TcpVeno's NewReno mode).
void ns3NewRenoIncreaseWindow(SenderState& state, std::uint32_t ackedSegments);
// TcpNewReno::CongestionAvoidance() alone (TcpVeno's growth past the slow start).
void ns3NewRenoCongestionAvoidance(SenderState& state, std::uint32_t ackedSegments);

} // namespace windscope::analysis::cwnd
