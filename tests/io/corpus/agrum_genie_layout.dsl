// Written for BN Studio's tests in the layout GeNIe saves .dsl files in (CRLF line ends, SCREEN and
// EXTRA_DEFINITION blocks, an OBSERVATION_COST section); a node comes before its parents.
net Exam
 {
 HEADER = 
  {
   ID = Exam;
   NAME = "Exam";
  };
 NUMSAMPLES = 1000;

 node Grade
  {
   TYPE = CPT;
   HEADER = 
    {
     ID = Grade;
     NAME = "Final grade";
    };
   SCREEN = 
    {
     POSITION = 
      {
       CENTER_X = 200;
       CENTER_Y = 250;
       WIDTH = 72;
       HEIGHT = 48;
      };
     COLOR = 16250597;
    };
   USER_PROPERTIES = 
    {
    };
   DOCUMENTATION = 
    {
    };
   PARENTS = (Study, Sleep); /* Study slowest, then Sleep, then Grade fastest */
   DEFINITION = 
    {
     NAMESTATES = (Pass, Fail);
     PROBABILITIES = (0.90000000, 0.10000000, 0.70000000, 0.30000000, 
     0.60000000, 0.40000000, 0.20000000, 0.80000000, 0.30000000, 
     0.70000000, 0.05000000, 0.95000000);
    };
   EXTRA_DEFINITION = 
    {
     DIAGNOSIS_TYPE = AUXILIARY;
     RANKED = FALSE;
     FAULT_NAMES = ("", "");
     DOCUMENTATION = 
      {
      };
     QUESTION = "";
    };
  };

 node Study
  {
   TYPE = CPT;
   HEADER = 
    {
     ID = Study;
     NAME = "Study";
    };
   SCREEN = 
    {
     POSITION = 
      {
       CENTER_X = 120;
       CENTER_Y = 90;
       WIDTH = 72;
       HEIGHT = 48;
      };
    };
   PARENTS = ();
   DEFINITION = 
    {
     NAMESTATES = (High, Medium, Low);
     PROBABILITIES = (0.30000000, 0.50000000, 0.20000000);
    };
  };

 node Sleep
  {
   TYPE = CPT;
   HEADER = 
    {
     ID = Sleep;
     NAME = "Sleep";
     COMMENT = "Hours of sleep \"before\" the exam /# not a comment #/";
    };
   PARENTS = ();
   DEFINITION = 
    {
     NAMESTATES = (Enough, Short); /# a nesting /# comment #/ #/
     PROBABILITIES = (0.60000000, 0.40000000);
    };
  };
 OBSERVATION_COST = 
  {

   node Grade
    {
     PARENTS = ();
     COSTS = (0.00000000);
    };
  };
};
