// SPDX-License-Identifier: GPL-3.0-or-later
// The shared loss recovery, ns-3 style (tcp-prr-recovery-test.cc): set a state, call one
// recovery method, check the next cwnd, ssthresh and state. Expected values are worked
// by hand from Linux tcp_enter_recovery(), tcp_cwnd_reduction(), tcp_end_cwnd_reduction(),
// tcp_try_undo_recovery() and tcp_enter_loss().
#include "analysis/sender/bbr.h"
#include "analysis/sender/loss_recovery.h"
#include "analysis/sender/newreno.h"
#include "analysis/sender/reno.h"

#include <gtest/gtest.h>

using namespace windscope::analysis::cwnd;

namespace {
constexpr std::uint32_t mss = 1448;

// A Reno sender that found a loss with 20 segments of window: ssthresh 10 segments.
SenderState renoInRecovery(LossRecovery& recovery)
{
    SenderState s{.mss = mss, .cwnd = 20 * mss, .cwndCount = 5, .sndUna = 0, .sndNxt = 20 * mss};
    recovery.enterRecovery(s, {.flightBytes = 19 * mss, .recoveryPoint = s.sndNxt});
    return s;
}
} // namespace

TEST(LossRecoveryEntry, KeepsPriorsTakesSsthreshFromTheModelAndClearsTheCount)
{
    RenoModel reno;
    LossRecovery recovery(reno, {});
    const SenderState s = renoInRecovery(recovery);
    EXPECT_EQ(s.state, CaState::Recovery);
    EXPECT_EQ(s.ssthresh, 10 * mss); // tcp_reno_ssthresh(): cwnd / 2
    EXPECT_EQ(s.priorCwnd, 20 * mss);
    EXPECT_EQ(s.priorSsthresh, kInfiniteSsthresh);
    EXPECT_EQ(s.recoveryPoint, 20 * mss);
    EXPECT_EQ(s.cwndCount, 0u);
    EXPECT_EQ(s.cwnd, 20 * mss); // PRR brings it down with the ACKs, not here
    EXPECT_TRUE(recovery.undo().marker);
    EXPECT_EQ(recovery.prrDelivered(), 0u);
    EXPECT_EQ(recovery.prrOut(), 0u);
}

TEST(LossRecoveryEntry, ClassicWindowCutsAtOnceFromTheFlightTheCallerMeasured)
{
    NewRenoModel newreno;
    LossRecovery recovery(newreno, {.window = RecoveryWindow::Classic});
    SenderState s{.mss = mss, .cwnd = 40 * mss};
    recovery.enterRecovery(s, {.flightBytes = 30 * mss, .recoveryPoint = 40 * mss});
    EXPECT_EQ(s.ssthresh, 15 * mss); // RFC 5681 (4): FlightSize / 2
    EXPECT_EQ(s.cwnd, 15 * mss);
}

TEST(LossRecoveryEntry, RateBasedModelKeepsItsWindow)
{
    BbrModel bbr;
    LossRecovery recovery(bbr, {.window = RecoveryWindow::Classic});
    SenderState s{.mss = mss, .cwnd = 40 * mss};
    recovery.enterRecovery(s, {.flightBytes = 30 * mss, .recoveryPoint = 40 * mss});
    EXPECT_EQ(s.cwnd, 40 * mss);
    EXPECT_EQ(s.ssthresh, kInfiniteSsthresh); // bbr_ssthresh() leaves it
}

TEST(Prr, AboveSsthreshSendsSsthreshOverPriorCwndOfWhatWasDelivered)
{
    RenoModel reno;
    LossRecovery recovery(reno, {});
    SenderState s = renoInRecovery(recovery);
    // delta = 10 - 18 < 0: sndcnt = ceil(10 * 2 / 20) - 0 = 1.
    recovery.prrStep(s, 18, 2, false);
    EXPECT_EQ(s.cwnd, 19 * mss);
    recovery.onSent(s, 1);
    // prr_delivered 4, prr_out 1: ceil(10 * 4 / 20) - 1 = 1.
    recovery.prrStep(s, 17, 2, false);
    EXPECT_EQ(s.cwnd, 18 * mss);
    EXPECT_EQ(recovery.prrDelivered(), 4u);
    EXPECT_EQ(recovery.prrOut(), 1u);
}

TEST(Prr, AtOrBelowSsthreshCatchesUpByDeliveredPlusOne)
{
    RenoModel reno;
    LossRecovery recovery(reno, {});
    SenderState s = renoInRecovery(recovery);
    // delta = 10 - 5 = 5: SSRB, max(1 - 0, 1) + 1 (SND.UNA advanced) = 2.
    recovery.prrStep(s, 5, 1, true);
    EXPECT_EQ(s.cwnd, 7 * mss);
    // delta = 10 - 9 = 1 bounds it: cwnd reaches ssthresh, not beyond.
    recovery.onSent(s, 2);
    recovery.prrStep(s, 9, 3, true);
    EXPECT_EQ(s.cwnd, 10 * mss);
}

// ns-3.37 TcpPrrRecovery::DoRecovery() with its default SSRB bound: RecoverFS is the
// data outstanding when the recovery began, not the cwnd before the cut.
TEST(Prr, Ns3ReadsItsReductionFromTheDataOutstanding)
{
    RenoModel reno;
    LossRecovery recovery(reno, {.prrBound = PrrBound::Ns3});
    // A sender held by the receiver's window: cwnd 40 segments, 20 outstanding.
    SenderState s{.mss = mss, .cwnd = 40 * mss, .sndUna = 0, .sndNxt = 20 * mss};
    recovery.enterRecovery(s, {.flightBytes = 20 * mss, .recoveryPoint = s.sndNxt, .outstandingBytes = 20 * mss});
    EXPECT_EQ(s.ssthresh, 20 * mss); // tcp_reno_ssthresh(): cwnd / 2
    // pipe 19 < ssthresh 20, so the catch-up branch: delivered (1), the ACK covering no
    // resent segment: 19 + 1.
    recovery.prrStep(s, 19, 1, false);
    EXPECT_EQ(s.cwnd, 20 * mss);
    // Above ssthresh with the pipe of 24: ceil(20 * (1 + 4) / 20) - 0 = 5 (Linux's prior
    // cwnd of 40 would give ceil(20 * 5 / 40) = 3).
    recovery.prrStep(s, 24, 4, false);
    EXPECT_EQ(s.cwnd, 29 * mss);
}

// Below ssthresh ns-3 catches up by the deficit only on a partial ACK of a resent
// segment (m_isRetransDataAcked); any other ACK sends what it delivered, no more.
TEST(Prr, Ns3CatchesUpOnlyWhenAResentSegmentIsAcknowledged)
{
    RenoModel reno;
    LossRecovery recovery(reno, {.prrBound = PrrBound::Ns3});
    SenderState s{.mss = mss, .cwnd = 20 * mss, .cwndCount = 5, .sndUna = 0, .sndNxt = 20 * mss};
    recovery.enterRecovery(s, {.flightBytes = 20 * mss, .recoveryPoint = s.sndNxt, .outstandingBytes = 20 * mss});
    // Above ssthresh (10): prr_delivered 8, ceil(10 * 8 / 20) - 0 = 4 of the 8.
    recovery.prrStep(s, 12, 8, false);
    EXPECT_EQ(s.cwnd, 16 * mss);
    recovery.onSent(s, 4);
    // Pipe 4, delta 6; a SACK of 1 without a resent segment acknowledged: 1 (Linux: the
    // deficit 9 - 4 = 5, bounded by delta, so 6 more).
    recovery.prrStep(s, 4, 1, true, false);
    EXPECT_EQ(s.cwnd, 5 * mss);
    recovery.onSent(s, 1);
    // The partial ACK of the resent head: max(10 - 5, 1) + 1 = 6, delta 10 - 4 = 6.
    recovery.prrStep(s, 4, 1, true, true);
    EXPECT_EQ(s.cwnd, 10 * mss);
}

TEST(Prr, ClassicWindowIgnoresTheStep)
{
    RenoModel reno;
    LossRecovery recovery(reno, {.window = RecoveryWindow::Classic});
    SenderState s = renoInRecovery(recovery);
    EXPECT_EQ(s.cwnd, 10 * mss);
    recovery.prrStep(s, 5, 3, true);
    EXPECT_EQ(s.cwnd, 10 * mss);
    EXPECT_EQ(recovery.prrDelivered(), 0u);
}

TEST(LossRecoveryEnd, LeavesAtSsthresh)
{
    RenoModel reno;
    LossRecovery recovery(reno, {});
    SenderState s = renoInRecovery(recovery);
    recovery.prrStep(s, 5, 1, true);
    EXPECT_FALSE(recovery.endRecovery(s, {}));
    EXPECT_EQ(s.cwnd, 10 * mss);
    EXPECT_EQ(s.state, CaState::Open);
    EXPECT_FALSE(recovery.undo().marker);
}

TEST(LossRecoveryEnd, InfiniteSsthreshLeavesTheWindowAlone)
{
    BbrModel bbr;
    LossRecovery recovery(bbr, {});
    SenderState s{.mss = mss, .cwnd = 40 * mss};
    recovery.enterRecovery(s, {.flightBytes = 30 * mss, .recoveryPoint = 40 * mss});
    s.cwnd = 12 * mss;
    recovery.endRecovery(s, {});
    EXPECT_GE(s.cwnd, 12 * mss); // bbr restores its prior window, never 2^62 bytes
    EXPECT_LE(s.cwnd, 40 * mss);
}

TEST(LossRecoveryUndo, DsackForEveryResendRestoresTheWindow)
{
    RenoModel reno;
    LossRecovery recovery(reno, {});
    SenderState s = renoInRecovery(recovery);
    recovery.onRetransmit(true, 1000);
    recovery.prrStep(s, 5, 1, true);
    recovery.onDsack(); // tcp_check_dsack(): the one re-send was unnecessary
    EXPECT_EQ(recovery.undo().retrans, 0);
    EXPECT_TRUE(recovery.endRecovery(s, {}));
    EXPECT_EQ(s.cwnd, 20 * mss);          // tcp_reno_undo_cwnd(): max(cwnd, prior_cwnd)
    EXPECT_EQ(s.ssthresh, kInfiniteSsthresh); // back to prior_ssthresh
    EXPECT_EQ(s.state, CaState::Open);
}

TEST(LossRecoveryUndo, ModelWithoutUndoEndsAtSsthreshDespiteTheDsack)
{
    NewRenoModel newreno;
    LossRecovery recovery(newreno, {});
    SenderState s{.mss = mss, .cwnd = 20 * mss};
    recovery.enterRecovery(s, {.flightBytes = 20 * mss, .recoveryPoint = 20 * mss});
    recovery.onRetransmit(true, 1000);
    recovery.onDsack();
    EXPECT_FALSE(recovery.endRecovery(s, {}));
    EXPECT_EQ(s.cwnd, 10 * mss);
}

TEST(LossRecoveryUndo, EchoOlderThanTheFirstResendRestoresTheWindow)
{
    RenoModel reno;
    LossRecovery recovery(reno, {});
    SenderState s = renoInRecovery(recovery);
    recovery.onRetransmit(true, 1000);
    recovery.onRetransmit(true, 1010);
    recovery.prrStep(s, 5, 1, true);
    // tcp_packet_delayed(): TSecr 999 predates retrans_stamp 1000.
    EXPECT_TRUE(recovery.endRecovery(s, {.hasTimestamps = true, .tsEcr = 999}));
    EXPECT_EQ(s.cwnd, 20 * mss);
}

TEST(LossRecoveryUndo, EchoOfTheResendKeepsTheReduction)
{
    RenoModel reno;
    LossRecovery recovery(reno, {});
    SenderState s = renoInRecovery(recovery);
    recovery.onRetransmit(true, 1000);
    recovery.prrStep(s, 5, 1, true);
    EXPECT_FALSE(recovery.endRecovery(s, {.hasTimestamps = true, .tsEcr = 1000}));
    EXPECT_EQ(s.cwnd, 10 * mss);
    EXPECT_EQ(s.ssthresh, 10 * mss);
}

TEST(LossRecoveryRto, FromOpenTakesAFreshSsthreshAndOneSegment)
{
    RenoModel reno;
    LossRecovery recovery(reno, {});
    SenderState s{.mss = mss, .cwnd = 20 * mss, .cwndCount = 7, .sndUna = 0, .sndNxt = 20 * mss};
    recovery.enterLoss(s, {.flightBytes = 20 * mss, .flightInRecoveryBytes = 20 * mss, .recoveryPoint = 20 * mss});
    EXPECT_EQ(s.state, CaState::Loss);
    EXPECT_EQ(s.ssthresh, 10 * mss);
    EXPECT_EQ(s.cwnd, mss);
    EXPECT_EQ(s.cwndCount, 0u);
    EXPECT_EQ(s.priorCwnd, 20 * mss);
    EXPECT_EQ(s.recoveryPoint, 20 * mss);
    EXPECT_TRUE(recovery.undo().marker);
}

TEST(LossRecoveryRto, DuringFastRecoveryLinuxKeepsTheSsthreshAlreadySet)
{
    RenoModel reno;
    LossRecovery recovery(reno, {});
    SenderState s = renoInRecovery(recovery);
    recovery.prrStep(s, 5, 1, true); // cwnd 7 segments
    recovery.enterLoss(s, {.flightBytes = 6 * mss, .flightInRecoveryBytes = 6 * mss, .recoveryPoint = 24 * mss});
    EXPECT_EQ(s.ssthresh, 10 * mss); // not tcp_reno_ssthresh() of 7 segments
    EXPECT_EQ(s.cwnd, mss);
    EXPECT_EQ(s.recoveryPoint, 24 * mss);
}

TEST(LossRecoveryRto, DuringFastRecoveryAModelThatResetsTakesTheRecoveryFlight)
{
    NewRenoModel newreno;
    LossRecovery recovery(newreno, {});
    SenderState s{.mss = mss, .cwnd = 20 * mss, .sndNxt = 20 * mss};
    recovery.enterRecovery(s, {.flightBytes = 20 * mss, .recoveryPoint = 20 * mss});
    recovery.enterLoss(s, {.flightBytes = 16 * mss, .flightInRecoveryBytes = 8 * mss, .recoveryPoint = 20 * mss});
    EXPECT_EQ(s.ssthresh, 4 * mss);
}

TEST(LossRecoveryRto, RepeatedRtoFreshOnlyForAModelThatResets)
{
    RenoModel reno;
    LossRecovery linuxSender(reno, {});
    SenderState s{.mss = mss, .cwnd = 20 * mss, .sndUna = 0, .sndNxt = 20 * mss};
    linuxSender.enterLoss(s, {.flightBytes = 20 * mss, .flightInRecoveryBytes = 20 * mss, .recoveryPoint = 20 * mss});
    linuxSender.enterLoss(s, {.flightBytes = 2 * mss, .flightInRecoveryBytes = 2 * mss, .recoveryPoint = 20 * mss});
    EXPECT_EQ(s.ssthresh, 10 * mss); // the backed-off RTO keeps it (RFC 6298 5.5)

    NewRenoModel newreno;
    LossRecovery ns3(newreno, {});
    SenderState t{.mss = mss, .cwnd = 20 * mss, .sndUna = 0, .sndNxt = 20 * mss};
    ns3.enterLoss(t, {.flightBytes = 20 * mss, .flightInRecoveryBytes = 20 * mss, .recoveryPoint = 20 * mss});
    EXPECT_EQ(t.ssthresh, 10 * mss);
    ns3.enterLoss(t, {.flightBytes = 6 * mss, .flightInRecoveryBytes = 6 * mss, .recoveryPoint = 20 * mss});
    EXPECT_EQ(t.ssthresh, 3 * mss); // ns-3 TcpSocketBase::ReTxTimeout(): every timeout
    EXPECT_EQ(t.cwnd, mss);
}

TEST(ModelTraits, DeclaredByTheModelsAndReadByName)
{
    for (std::string_view name : allCongestionModelNames()) {
        const auto model = makeCongestionModel(name);
        ASSERT_NE(model, nullptr) << name;
        const ModelTraits t = model->traits();
        // Linux's own models recover with RACK-TLP; those after papers and ns-3 do not.
        const bool linuxModel = name == "reno" || name == "cubic" || name == "bbr";
        EXPECT_EQ(t.rackTlpByDefault, linuxModel) << name;
        EXPECT_EQ(t.rateBased, t.cwndLimited == CwndLimitedRule::ModelSets) << name;
    }
    EXPECT_EQ(rateBasedModelName(), "bbr");
    EXPECT_EQ(congestionModelNameList("|"), "reno|newreno|cubic|westwood-plus|veno|bbr");
    EXPECT_EQ(congestionModelNameList(", ", true), "reno, newreno, cubic, westwood-plus, veno");
    EXPECT_FALSE(makeCongestionModel("newreno")->traits().undoesSpuriousReductions);
    EXPECT_TRUE(makeCongestionModel("newreno")->traits().rtoResetsSsthresh);
}
