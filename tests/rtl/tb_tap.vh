// tb_tap.vh: the TAP lines every RTL testbench prints, included inside
// its module: ok/not ok, the failure count nfail, and a message buffer msg
// for $sformat. tests/rtl/tn_tb_run.sh numbers the lines.
    integer nfail = 0;
    reg [8*140-1:0] msg;
    task ok(input c, input [8*140-1:0] what);
        begin
            if (c)
                $display("ok - %0s", what);
            else begin
                $display("not ok - %0s", what);
                nfail = nfail + 1;
            end
        end
    endtask
